import { isAirspaceError } from '../errors.js';
import { diffKey, diffWorkingSets, keptByIgnore } from '../git/diff-working-set.js';
import { mergeBase } from '../git/merge-base.js';
import { currentRunSignal, withRunSignal } from '../git/run-scope.js';
import { symbolMessages } from '../messages/channels.js';
import { blobKey, readBlobs } from '../symbols/read-blobs.js';
import { newParseMemo, pairBlobQueries, symbolChannel, type ParseMemo, type SymbolChannelResult } from '../symbols/symbol-channel.js';
import { mapLimit } from '../traffic/limit-concurrency.js';
import type { WorkingSetFile } from '../traffic/working-set.js';
import type { ChannelledPair, GitChannelContext } from './types.js';

export interface SymbolChannelsContext extends GitChannelContext {
  /**
   * Ends the symbol channel alone (its share of the budget, see symbolShare): the channel is then
   * unknown with the reason and the pair keeps its other channels. Must include the run's signal.
   */
  readonly signal?: AbortSignal;
}

export interface SymbolChannels<P> {
  /** The same pairs, in order; those selected carry their symbol channel result. */
  readonly pairs: P[];
  /** Pairs with two states whose symbol channel did not run because the caller did not select them. */
  readonly skipped: number;
}

const MAX_SHARED_READ = 5_000;

/**
 * The symbol channel of the selected pairs: what each side did to exported declarations against
 * what the other side's new code uses (src/symbols/). A pair whose working sets are its two states'
 * diffs from the pair's base reads the changed versions with every other such pair in ONE
 * `cat-file --batch` and parses each version once (the ownship's files are in every pair); a pair
 * whose peer state is published work (a beacon's commit) diffs both states from their own
 * merge-base: the beacon's file list is the peer's claim, its commit is what git holds. When that
 * merge-base is proven (src/channels/proven-merge-base.ts), its diffs come from one batch and it
 * shares the read and the parses as the first kind does.
 */
export async function symbolChannels<P extends ChannelledPair>(
  pairs: readonly P[],
  select: (k: number) => boolean,
  context: SymbolChannelsContext,
): Promise<SymbolChannels<P>> {
  const out = [...pairs];
  const chosen: number[] = [];
  let skipped = 0;
  out.forEach((pair, k) => {
    if (pair.symbol || !pair.states) return;
    if (select(k)) chosen.push(k);
    else skipped++;
  });
  if (chosen.length === 0) return { pairs: out, skipped };
  const proven = await provenSides(out, chosen, context);
  const blobs = await sharedBlobs(
    chosen.map((k) => ({ pair: out[k]!, proven: proven.get(k) })),
    context,
  );
  // With the versions read once, each is parsed once too.
  const parsed = blobs ? newParseMemo() : undefined;
  const sharedCommits = commitsInSeveral(chosen.flatMap((k) => (proven.has(k) ? [proven.get(k)!.base, out[k]!.states!.a, out[k]!.states!.b] : [])));
  // Pairs by index, so 499,500 pairs without contact cost no promise each.
  await mapLimit(chosen, context.concurrency, async (k) => {
    const pair = out[k]!;
    const own = proven.has(k) && parsed ? keptFor(parsed, sharedCommits) : parsed;
    out[k] = { ...pair, symbol: await pairSymbols(pair, context, blobs, own, proven.get(k)) };
  });
  return { pairs: out, skipped };
}

async function pairSymbols(
  pair: ChannelledPair,
  context: SymbolChannelsContext,
  blobs: ReadonlyMap<string, string> | undefined,
  parsed: ParseMemo | undefined,
  proven: ProvenSides | undefined,
): Promise<SymbolChannelResult> {
  const states = pair.states!;
  const ids = { a: pair.a, b: pair.b };
  const share = context.signal;
  const run = currentRunSignal();
  try {
    share?.throwIfAborted();
    const signal = share ? { signal: share } : {};
    if (states.fromBase) {
      return await symbolChannel(context.cwd, pair.base, states.a, states.b, {
        ids,
        filesA: pair.workingSetA.files,
        filesB: pair.workingSetB.files,
        ...(blobs && parsed ? { blobs, parsed } : {}),
        ...signal,
      });
    }
    if (proven) {
      return await symbolChannel(context.cwd, proven.base, states.a, states.b, {
        ids,
        ignore: context.ignore,
        ...proven.files,
        ...(blobs && parsed ? { blobs, parsed } : {}),
        ...signal,
      });
    }
    const found = share ? await withRunSignal(share, () => mergeBase(context.cwd, states.a, states.b)) : await mergeBase(context.cwd, states.a, states.b);
    if (found.base === null) return { value: null, collisions: [], reason: found.reason };
    return await symbolChannel(context.cwd, found.base, states.a, states.b, { ids, ignore: context.ignore, ...signal });
  } catch (error) {
    // Only the channel's own share ran out: the run goes on, the pair keeps its other channels.
    if (share?.aborted && !run?.aborted) return { value: null, collisions: [], reason: symbolMessages.cut };
    throw error;
  }
}

/** Commits named by more than one proven pair (the base, the ownship's state): their parses are worth keeping. */
function commitsInSeveral(commits: readonly string[]): ReadonlySet<string> {
  const seen = new Set<string>();
  const several = new Set<string>();
  for (const commit of commits) (seen.has(commit) ? several : seen).add(commit);
  return several;
}

/**
 * A pair's view of the run's parse memo that keeps in it only the versions of shared commits: a
 * beacon's own versions are parsed for its pair alone, and 2,000 of their syntax trees held to the
 * end of the stage cost the collector more than a second (measured on the bench's busiest pusher).
 */
function keptFor(memo: ParseMemo, shared: ReadonlySet<string>): ParseMemo {
  const isShared = (key: string): boolean => shared.has(key.slice(0, key.indexOf(':')));
  return { programs: new Layered(memo.programs, isShared), facts: new Layered(memo.facts, isShared), sides: new Layered(memo.sides, isShared) };
}

class Layered<V> extends Map<string, V> {
  constructor(
    private readonly shared: Map<string, V>,
    private readonly isShared: (key: string) => boolean,
  ) {
    super();
  }
  override has(key: string): boolean {
    return this.isShared(key) ? this.shared.has(key) : super.has(key);
  }
  override get(key: string): V | undefined {
    return this.isShared(key) ? this.shared.get(key) : super.get(key);
  }
  override set(key: string, value: V): this {
    if (this.isShared(key)) this.shared.set(key, value);
    else super.set(key, value);
    return this;
  }
}

/** A published-work pair's proven merge base and both sides' diffs from it, as symbolChannel would compute them. */
interface ProvenSides {
  readonly base: string;
  readonly files: { readonly filesA: readonly WorkingSetFile[]; readonly filesB: readonly WorkingSetFile[] };
}

/**
 * The chosen published-work pairs whose merge base is proven (src/channels/proven-merge-base.ts):
 * that base is what `git merge-base` would print, and both sides' diffs from it — what each pair's
 * symbolChannel would read in a `diff-tree --stdin` of its own, with the same flags and ignore — come
 * from ONE `diff-tree --stdin` for all of them (the ownship's side once). 500 beacon pairs cost two
 * processes each before. A failed read leaves each pair to its own merge-base and diff.
 */
async function provenSides(pairs: readonly ChannelledPair[], chosen: readonly number[], context: SymbolChannelsContext): Promise<Map<number, ProvenSides>> {
  const proven = chosen.flatMap((k) => {
    const base = context.proven?.get(k);
    const states = pairs[k]!.states;
    return base !== undefined && states && !states.fromBase ? [{ k, base, a: states.a, b: states.b }] : [];
  });
  const result = new Map<number, ProvenSides>();
  if (proven.length === 0) return result;
  // A beacon's work was diffed from this very base already, with the same flags and no ignore
  // (src/run/beacon-traffic.ts, filesSinceBase): 500 of them are not diffed a second time.
  const known = new Map<number, readonly WorkingSetFile[]>();
  for (const { k, base } of proven) {
    const since = pairs[k]!.states?.filesSinceBase;
    if (since && pairs[k]!.base === base) known.set(k, keptByIgnore(since.b, context.ignore));
  }
  const requests = proven.flatMap(({ k, base, a, b }) => [{ base, target: a }, ...(known.has(k) ? [] : [{ base, target: b }])]);
  const read = () => diffWorkingSets(context.cwd, requests, { ignore: context.ignore });
  let diffs: Awaited<ReturnType<typeof read>>;
  try {
    diffs = context.signal ? await withRunSignal(context.signal, read) : await read();
  } catch (error) {
    // The channel's own share ran out, or git failed: each pair then ends (or reads) on its own, as before.
    if (!isAirspaceError(error) || currentRunSignal()?.aborted) throw error;
    return result;
  }
  for (const { k, base, a, b } of proven) {
    const sideA = diffs.get(diffKey({ base, target: a }));
    const sideB = known.has(k) ? { files: known.get(k)!, unparsed: false } : diffs.get(diffKey({ base, target: b }));
    // A side the batch could not cut out is no "nothing changed": that pair reads its own diffs.
    if (!sideA || !sideB || sideA.unparsed || sideB.unparsed) continue;
    result.set(k, { base, files: { filesA: sideA.files, filesB: sideB.files } });
  }
  return result;
}

/**
 * Every chosen pair's file versions in ONE `cat-file --batch` (a hook with 20 peers otherwise
 * starts 20, one after another under the concurrency limit). A failed read leaves each pair to read
 * its own, so one bad pair still cannot take the others down.
 */
async function sharedBlobs(
  pairs: readonly { readonly pair: ChannelledPair; readonly proven: ProvenSides | undefined }[],
  context: SymbolChannelsContext,
): Promise<ReadonlyMap<string, string> | undefined> {
  const queries = [
    ...new Map(
      pairs
        .flatMap(({ pair, proven }) =>
          pair.states?.fromBase
            ? pairBlobQueries(pair.base, pair.states.a, pair.workingSetA.files, pair.states.b, pair.workingSetB.files)
            : proven && pair.states
              ? pairBlobQueries(proven.base, pair.states.a, proven.files.filesA, pair.states.b, proven.files.filesB)
              : [],
        )
        .map((query) => [blobKey(query.commit, query.path), query]),
    ).values(),
  ];
  // Past this many file versions (a scan of hundreds of agents) holding them all at once, and
  // their parses, costs more memory than the processes it saves: each pair reads its own. Counted
  // once each: 500 beacon pairs share the ownship's versions and the base's.
  if (queries.length === 0 || queries.length > MAX_SHARED_READ) return undefined;
  try {
    return await readBlobs(context.cwd, queries);
  } catch (error) {
    if (!isAirspaceError(error) || currentRunSignal()?.aborted) throw error;
    return undefined;
  }
}

/**
 * The symbol channel's share of what is left of the run's budget: parsing a peer's large changed
 * files on a loaded machine can take seconds (docs/decisions/symbol-channel.md, "Beacons"), and a
 * run cut there lost the whole peer — its overlap and merge channels too — not only its symbols.
 * A quarter of the budget (at most 1 s) stays for scoring, the report and the beacon publish.
 */
export function symbolShare(budget: { readonly signal: AbortSignal; readonly budgetMs: number | null; remaining(): number }): AbortSignal {
  if (budget.budgetMs === null) return budget.signal;
  const reserve = Math.min(1000, budget.budgetMs / 4);
  return AbortSignal.any([budget.signal, AbortSignal.timeout(Math.max(0, Math.floor(budget.remaining() - reserve)))]);
}
