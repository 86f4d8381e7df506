/**
 * A scenario at one moment → two working sets (the boundary type the CLI also produces) → two
 * engine agents through `toAgent`, the CLI's own adapter. Data times are unix seconds; the
 * product's are epoch ms, so every time is multiplied by 1000 here and only here.
 */
import type { Agent, ImportGraph } from '../../src/engine/types.js';
import { toAgent } from '../../src/traffic/to-agent.js';
import type { WorkingSet, WorkingSetFile } from '../../src/traffic/working-set.js';
import { toImportGraph } from './dep-graph.js';
import type { DataSide, JoinedScenario, MomentId } from './scenario-types.js';

/** The moments scored: both-active axis (primary), life axis, final state. */
export const FRACTIONS = ['0.25', '0.5', '0.75'] as const;
export const ALL_MOMENTS: readonly MomentId[] = [...FRACTIONS.map((f) => `both-${f}` as MomentId), ...FRACTIONS.map((f) => `life-${f}` as MomentId), 'final'];

/** One pair to score: a scenario at one moment. */
export interface PairCase {
  readonly repo: string;
  readonly merge: string;
  readonly mergeKind: string;
  readonly multipleBases: boolean;
  readonly moment: MomentId;
  /** The final merge conflicted (the label for every moment). */
  readonly label: boolean;
  /** Epoch ms of the moment: the cut time, or the merge time for the final state. */
  readonly now: number;
  readonly sideA: WorkingSet;
  readonly sideB: WorkingSet;
  /** Neither side is empty at this moment. */
  readonly bothActive: boolean;
  readonly commitsA: number;
  readonly commitsB: number;
}

type LastEdit = (file: string, entryTime: number | null | undefined) => number | null;

const seconds = (value: number | null | undefined): number | null => (typeof value === 'number' ? value * 1000 : null);

export function toWorkingSet(side: DataSide, base: string | null, lastEdit: LastEdit): WorkingSet {
  const files: WorkingSetFile[] = side.files.map((f) => ({
    file: f.file,
    ...(f.path !== undefined ? { path: f.path } : {}),
    status: f.status,
    ...(f.ranges !== undefined ? { ranges: f.ranges } : {}),
    ...(f.whole === true ? { whole: true } : {}),
    lastEditTime: lastEdit(f.file, f.lastEditTime),
    origin: 'committed' as const,
  }));
  for (const b of side.binaryFiles) {
    files.push({
      file: b.file,
      ...(b.path !== undefined ? { path: b.path } : {}),
      status: b.status,
      whole: true,
      binary: true,
      lastEditTime: lastEdit(b.file, b.lastEditTime),
      origin: 'committed',
    });
  }
  return { base, files };
}

/** The scenario at `moment`, or null when that moment is not in the data. */
export function pairAt(joined: JoinedScenario, moment: MomentId): PairCase | null {
  const s = joined.scenario;
  const common = { repo: s.repo, merge: s.merge, mergeKind: s.mergeKind, multipleBases: s.multipleBases, moment, label: s.label_conflict };
  if (moment === 'final') {
    const rec = joined.recency;
    const fromRecency =
      (side: 'sideA' | 'sideB'): LastEdit =>
      (file) =>
        seconds(rec?.[side][file]);
    const sideA = toWorkingSet(s.sideA, null, fromRecency('sideA'));
    const sideB = toWorkingSet(s.sideB, null, fromRecency('sideB'));
    return {
      ...common,
      now: s.mergeTime * 1000,
      sideA,
      sideB,
      bothActive: sideA.files.length > 0 && sideB.files.length > 0,
      commitsA: s.sideA.commits ?? 0,
      commitsB: s.sideB.commits ?? 0,
    };
  }
  const [axis, fraction] = moment.startsWith('both-') ? (['overlapSnapshots', moment.slice(5)] as const) : (['snapshots', moment.slice(5)] as const);
  const snap = joined.prefix?.[axis][fraction];
  if (!snap) return null;
  const fromEntry: LastEdit = (_file, entryTime) => seconds(entryTime);
  const sideA = toWorkingSet(snap.sideA, null, fromEntry);
  const sideB = toWorkingSet(snap.sideB, null, fromEntry);
  return {
    ...common,
    now: snap.t * 1000,
    sideA,
    sideB,
    bothActive: snap.sideA.prefix !== null && snap.sideB.prefix !== null,
    commitsA: snap.sideA.commits ?? 0,
    commitsB: snap.sideB.commits ?? 0,
  };
}

/** The two engine agents of a pair, through the CLI's adapter. */
export function agentsOf(pair: PairCase): readonly [Agent, Agent] {
  return [toAgent('sideA', pair.sideA, { committedWork: pair.commitsA }), toAgent('sideB', pair.sideB, { committedWork: pair.commitsB })];
}

export function graphOf(joined: JoinedScenario): ImportGraph {
  return toImportGraph(joined.scenario.depGraph);
}
