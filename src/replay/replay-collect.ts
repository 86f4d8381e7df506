/**
 * Turns a repository's recent merges into scored-ready cases: for each merge, its label (did
 * `git merge-tree` conflict on the two parents) and, at each both-active moment, both sides'
 * working sets in base coordinates from the product's own git layer. Git work is batched: one log
 * for the merge list; per merge one merge-base, one merge-tree and one log of both sides, side by
 * side; per moment a merge-tree between the two prefixes (the product's merge channel) only when
 * their paths can meet; and ONE `diff-tree --stdin` for every working set of every merge and moment.
 */
import { isAirspaceError } from '../errors.js';
import type { CommitGraph } from '../git/branch-history.js';
import { diffKey, diffWorkingSets, type DiffRequest, type DiffWorkingSet } from '../git/diff-working-set.js';
import { mergeChannel } from '../channels/merge-channel.js';
import type { MergeChannelResult } from '../git/merge-tree-channel.js';
import { mapLimit } from '../traffic/limit-concurrency.js';
import type { AgentFacts } from '../traffic/to-agent.js';
import { withoutIdenticalEdits } from '../traffic/identical-edits.js';
import type { WorkingSet } from '../traffic/working-set.js';
import { firstParentChain, listMerges, mergeBases, readSides, virtualMergeCommit, type MergeCommit } from './replay-history.js';
import { bothActiveCut, prefixAt, type ChainCommit } from './replay-moments.js';
import { sideStateAt, withEditTimes, type SideState } from './replay-side-state.js';

/** The label is git's own verdict on the two parents, every path counted (fair scoring drops ignored ones later). */
const NOTHING_IGNORED = (): boolean => false;

export type ReplaySkipReason = 'no-merge-base' | 'label-unknown' | 'git-failed' | 'side-empty' | 'virtual-merge-failed';

export interface ReplaySkip {
  readonly merge: string;
  /** The moment skipped; absent when the whole merge is skipped. */
  readonly fraction?: number;
  readonly reason: ReplaySkipReason;
}

export interface ReplayCase {
  readonly merge: string;
  readonly subject: string;
  readonly fraction: number;
  /** The two parents conflicted in `git merge-tree` (the label of every moment). */
  readonly label: boolean;
  /** The moment, epoch ms: the engine's `now`. */
  readonly now: number;
  readonly sideA: WorkingSet;
  readonly sideB: WorkingSet;
  readonly factsA: AgentFacts;
  readonly factsB: AgentFacts;
  /** The product's merge channel between the two prefixes at the moment. */
  readonly mergeChannel: MergeChannelResult;
}

export type ReplayPhase = 'merges' | 'sides' | 'diff' | 'graph' | 'score';
export interface ReplayProgress {
  readonly phase: ReplayPhase;
  readonly done?: number;
  readonly total?: number;
}

export interface CollectOptions {
  readonly merges: number;
  readonly fractions: readonly number[];
  readonly ignore?: (path: string) => boolean;
  readonly onProgress?: (event: ReplayProgress) => void;
  /**
   * The run's signal (its git processes already die with it: src/git/run-signal.ts). A git failure
   * skips one merge, but not once the run is aborted: then every later git call fails too, and the
   * replay must end with the cancellation instead of reporting every merge as skipped.
   */
  readonly signal?: AbortSignal;
}

export interface Collected {
  readonly merges: readonly MergeCommit[];
  readonly labels: ReadonlyMap<string, boolean>;
  readonly cases: readonly ReplayCase[];
  readonly skipped: readonly ReplaySkip[];
}

interface MergeHistory {
  readonly merge: MergeCommit;
  readonly base: string;
  readonly label: boolean;
  readonly chainA: ChainCommit[];
  readonly chainB: ChainCommit[];
  readonly graph: CommitGraph;
}

interface PendingCase {
  readonly history: MergeHistory;
  readonly fraction: number;
  readonly now: number;
  readonly states: readonly [SideState, SideState];
  readonly targets: readonly [string, string];
}

/** Git processes in flight: on two cores a few hide start-up cost, many only thrash. */
const PARALLEL = 4;

export async function collectReplayCases(cwd: string, options: CollectOptions): Promise<Collected> {
  const progress = options.onProgress ?? (() => undefined);
  progress({ phase: 'merges' });
  const merges = await listMerges(cwd, options.merges);
  const skipped: ReplaySkip[] = [];
  let done = 0;
  const histories = await mapLimit(merges, PARALLEL, async (merge) => {
    const history = await readMerge(cwd, merge, skipped, options.signal);
    progress({ phase: 'sides', done: ++done, total: merges.length });
    return history;
  });
  const labels = new Map<string, boolean>();
  const pending: Omit<PendingCase, 'targets'>[] = [];
  for (const history of histories) {
    if (!history) continue;
    labels.set(history.merge.merge, history.label);
    for (const fraction of options.fractions) {
      const t = bothActiveCut(history.chainA, history.chainB, history.merge.time, fraction);
      const prefixA = t === null ? null : prefixAt(history.chainA, t);
      const prefixB = t === null ? null : prefixAt(history.chainB, t);
      if (t === null || !prefixA || !prefixB) {
        skipped.push({ merge: history.merge.merge, fraction, reason: 'side-empty' });
        continue;
      }
      const states = [sideStateAt(history.graph, prefixA, history.base), sideStateAt(history.graph, prefixB, history.base)] as const;
      pending.push({ history, fraction, now: t * 1000, states });
    }
  }

  // Prefixes that do not descend from the base get a virtual merge (memoised: consecutive moments
  // often share a prefix), then every working set comes from ONE batched diff.
  const virtual = new Map<string, Promise<string | null>>();
  const targetOf = (base: string, state: SideState): Promise<string | null> => {
    if (state.descendsFromBase) return Promise.resolve(state.prefix);
    const key = `${base} ${state.prefix}`;
    if (!virtual.has(key)) virtual.set(key, virtualTarget(cwd, base, state.prefix, options.signal));
    return virtual.get(key)!;
  };
  const targeted = await mapLimit(pending, PARALLEL, async (item): Promise<PendingCase | null> => {
    const [targetA, targetB] = await Promise.all([targetOf(item.history.base, item.states[0]), targetOf(item.history.base, item.states[1])]);
    if (targetA !== null && targetB !== null) return { ...item, targets: [targetA, targetB] };
    skipped.push({ merge: item.history.merge.merge, fraction: item.fraction, reason: 'virtual-merge-failed' });
    return null;
  });

  progress({ phase: 'diff' });
  const diffOptions = options.ignore ? { ignore: options.ignore } : {};
  const { diffs, failed } = await diffAll(
    cwd,
    targeted.filter((item): item is PendingCase => item !== null),
    diffOptions,
    options.signal,
  );
  for (const merge of failed) {
    labels.delete(merge);
    skipped.push({ merge, reason: 'git-failed' });
  }
  const live = targeted.filter((item): item is PendingCase => item !== null && !failed.has(item.history.merge.merge));
  // As in the CLI (`comparePairs`), what both sides changed identically is left out of the pair.
  const sides = live.map((item) => {
    const [sideA, sideB] = ([0, 1] as const).map((index) => {
      const diff = diffs.get(diffKey({ base: item.history.base, target: item.targets[index] }));
      return withEditTimes({ base: item.history.base, files: diff?.files ?? [] }, item.states[index].editTimes);
    });
    return withoutIdenticalEdits(sideA!, sideB!);
  });

  // The product's merge channel between the two prefixes: as in the CLI, pairs whose paths cannot
  // meet are clean without a merge-tree process (`inferred`).
  const channels = new Map<string, Promise<MergeChannelResult>>();
  const mergeChannels = await mapLimit(live, PARALLEL, (item, index) => {
    const [sideA, sideB] = sides[index]!;
    const key = `${item.states[0].prefix} ${item.states[1].prefix}`;
    if (!channels.has(key))
      channels.set(key, mergeChannel(cwd, { a: item.states[0].prefix, b: item.states[1].prefix, filesA: sideA!.files, filesB: sideB!.files }, NOTHING_IGNORED));
    return channels.get(key)!;
  });

  const cases = live.map((item, index): ReplayCase => {
    const [stateA, stateB] = item.states;
    return {
      merge: item.history.merge.merge,
      subject: item.history.merge.subject,
      fraction: item.fraction,
      label: item.history.label,
      now: item.now,
      sideA: sides[index]![0]!,
      sideB: sides[index]![1]!,
      factsA: { committedWork: stateA.commits, startedAt: stateA.startedAt },
      factsB: { committedWork: stateB.commits, startedAt: stateB.startedAt },
      mergeChannel: mergeChannels[index]!,
    };
  });
  return { merges, labels, cases, skipped };
}

/** A git failure that skips one merge; after the run's signal aborted, git fails for every merge and the error ends the replay. */
const gitFailure = (error: unknown, signal: AbortSignal | undefined): boolean => isAirspaceError(error) && error.kind === 'git' && !signal?.aborted;

const requestsOf = (items: readonly PendingCase[]): DiffRequest[] =>
  items.flatMap((item) => item.targets.map((target) => ({ base: item.history.base, target })));

/**
 * Every working set from ONE batched diff. If git cannot read an object (a partial or shallow
 * clone, a pruned object) the whole batch fails; then each merge gets its own diff so one
 * unreadable merge is skipped and counted instead of sinking the replay.
 */
async function diffAll(
  cwd: string,
  items: readonly PendingCase[],
  options: { ignore?: (path: string) => boolean },
  signal: AbortSignal | undefined,
): Promise<{ diffs: Map<string, DiffWorkingSet>; failed: Set<string> }> {
  try {
    return { diffs: await diffWorkingSets(cwd, requestsOf(items), options), failed: new Set() };
  } catch (error) {
    if (!gitFailure(error, signal)) throw error;
  }
  const byMerge = new Map<string, PendingCase[]>();
  for (const item of items) byMerge.set(item.history.merge.merge, [...(byMerge.get(item.history.merge.merge) ?? []), item]);
  const diffs = new Map<string, DiffWorkingSet>();
  const failed = new Set<string>();
  await mapLimit([...byMerge], PARALLEL, async ([merge, group]) => {
    try {
      for (const [key, value] of await diffWorkingSets(cwd, requestsOf(group), options)) diffs.set(key, value);
    } catch (error) {
      if (!gitFailure(error, signal)) throw error;
      failed.add(merge);
    }
  });
  return { diffs, failed };
}

/** Base, label and both sides of one merge; null (with the reason recorded) when unusable. */
async function readMerge(cwd: string, merge: MergeCommit, skipped: ReplaySkip[], signal: AbortSignal | undefined): Promise<MergeHistory | null> {
  let read: [string[], MergeChannelResult, CommitGraph];
  try {
    read = await Promise.all([
      mergeBases(cwd, merge.p1, merge.p2),
      mergeChannel(cwd, { a: merge.p1, b: merge.p2 }, NOTHING_IGNORED),
      readSides(cwd, merge.p1, merge.p2),
    ]);
  } catch (error) {
    // One unreadable merge (missing objects in a partial or shallow clone) must not sink the rest.
    if (!gitFailure(error, signal)) throw error;
    skipped.push({ merge: merge.merge, reason: 'git-failed' });
    return null;
  }
  const [bases, label, graph] = read;
  const base = bases[0];
  if (base === undefined) {
    skipped.push({ merge: merge.merge, reason: 'no-merge-base' });
    return null;
  }
  if (label.value === null) {
    skipped.push({ merge: merge.merge, reason: 'label-unknown' });
    return null;
  }
  return { merge, base, label: label.value === 1, chainA: firstParentChain(graph, merge.p1), chainB: firstParentChain(graph, merge.p2), graph };
}

/** The virtual-merge commit standing for a prefix that does not descend from the base; null if git cannot make one. */
async function virtualTarget(cwd: string, base: string, prefix: string, signal: AbortSignal | undefined): Promise<string | null> {
  try {
    return (await virtualMergeCommit(cwd, base, prefix))?.commit ?? null;
  } catch (error) {
    if (isAirspaceError(error) && !signal?.aborted) return null;
    throw error;
  }
}
