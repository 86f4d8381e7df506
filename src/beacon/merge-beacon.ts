/**
 * A peer seen twice — its pushed branch and its beacon — is one agent, not two. The beacon adds the
 * uncommitted work the branch cannot show; files present in both are merged, never counted twice.
 *
 * Ranges are only comparable in the same base coordinates. Rule (docs/decisions/beacons.md):
 * - same non-null base: merge per file, union of the ranges (overlapping or touching ranges fuse);
 *   a whole-file edit on either side makes the file whole;
 * - different or unknown bases: the branch's entries stand (their coordinates are the pair's),
 *   except that a file the beacon reports with uncommitted edits becomes a whole-file edit; files
 *   only the beacon knows are added as whole-file edits, since their line numbers refer to another
 *   base — coarser, but never a silent miss.
 */
import type { WorkingSet, WorkingSetFile } from '../traffic/working-set.js';
import type { Beacon } from './beacon-schema.js';
import type { Range } from './fit-beacon.js';

export type BeaconMergeMode = 'same-base' | 'beacon-files-whole';

export interface BeaconMerge {
  readonly workingSet: WorkingSet;
  readonly mode: BeaconMergeMode;
  /** Files the beacon added that the branch did not show. */
  readonly added: number;
}

/** Union of half-open ranges, sorted; overlapping or touching ranges fuse, empty ones inside others vanish. */
export function unionRanges(ranges: readonly Range[]): Range[] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const out: [number, number][] = [];
  for (const [start, end] of sorted) {
    const last = out.at(-1);
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else out.push([start, end]);
  }
  return out;
}

function isWhole(file: WorkingSetFile): boolean {
  return file.whole === true || file.binary === true || file.ranges === undefined;
}

function latest(a: number | null | undefined, b: number | null | undefined): number | null | undefined {
  if (typeof a === 'number' && typeof b === 'number') return Math.max(a, b);
  return typeof a === 'number' ? a : b;
}

function mergeFile(branch: WorkingSetFile, beacon: WorkingSetFile): WorkingSetFile {
  const whole = isWhole(branch) || isWhole(beacon);
  const lastEditTime = latest(branch.lastEditTime, beacon.lastEditTime);
  const path = beacon.path ?? branch.path;
  return {
    file: branch.file,
    ...(path !== undefined ? { path } : {}),
    // The beacon is the newer view (it includes the worktree), so its status wins.
    status: beacon.status,
    ...(whole ? { whole: true } : { ranges: unionRanges([...(branch.ranges ?? []), ...(beacon.ranges ?? [])]) }),
    ...(branch.binary === true || beacon.binary === true ? { binary: true } : {}),
    ...(lastEditTime !== undefined ? { lastEditTime } : {}),
    origin: beacon.origin === 'uncommitted' ? 'uncommitted' : (branch.origin ?? 'committed'),
  };
}

function asBeaconFile(file: WorkingSetFile, whole: boolean): WorkingSetFile {
  const origin = file.origin ?? 'beacon';
  if (!whole) return { ...file, origin };
  const { ranges: _ranges, ...rest } = file;
  return { ...rest, whole: true, origin };
}

export function mergeBeaconIntoWorkingSet(branchWorkingSet: WorkingSet, beacon: Beacon): BeaconMerge {
  const sameBase = branchWorkingSet.base !== null && beacon.workingSet.base === branchWorkingSet.base;
  const byFile = new Map(beacon.workingSet.files.map((f) => [f.file, f] as const));
  const files: WorkingSetFile[] = [];
  for (const file of branchWorkingSet.files) {
    const fromBeacon = byFile.get(file.file);
    byFile.delete(file.file);
    if (!fromBeacon) files.push(file);
    else if (sameBase) files.push(mergeFile(file, fromBeacon));
    // Uncommitted edits at unknown coordinates in a file the branch also touches: whole file.
    else if (fromBeacon.origin === 'uncommitted') files.push({ ...asBeaconFile(file, true), origin: 'uncommitted' });
    else files.push(file);
  }
  for (const file of byFile.values()) files.push(asBeaconFile(file, !sameBase));
  return { workingSet: { base: branchWorkingSet.base, files }, mode: sameBase ? 'same-base' : 'beacon-files-whole', added: byFile.size };
}
