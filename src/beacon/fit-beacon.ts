/**
 * Shapes a beacon to the limits before it is published, so peers never have to drop it: too many
 * ranges collapse to one span, too many files are cut (most recent edits kept, the count
 * recorded), and when the JSON is still too large, ranges give way to whole-file entries — a
 * coarser beacon still warns, a dropped one is silent.
 */
import type { WorkingSetFile } from '../traffic/working-set.js';
import type { BeaconLimits } from './beacon-limits.js';
import type { Beacon } from './beacon-schema.js';
import { repoPathProblem } from './safe-repo-path.js';

export type Range = readonly [number, number];

/** More than `max` ranges become the single span `[min start, max end)`. */
export function collapseRanges(ranges: readonly Range[], max: number): readonly Range[] {
  if (ranges.length <= max) return ranges;
  let start = Number.POSITIVE_INFINITY;
  let end = Number.NEGATIVE_INFINITY;
  for (const [s, e] of ranges) {
    if (s < start) start = s;
    if (e > end) end = e;
  }
  return [[start, end]];
}

export function collapseFileRanges(file: WorkingSetFile, max: number): WorkingSetFile {
  if (!file.ranges || file.ranges.length <= max) return file;
  return { ...file, ranges: collapseRanges(file.ranges, max) };
}

const sharable = (path: string, limits: BeaconLimits): boolean => repoPathProblem(path, limits.maxPathLength) === null;

export type FitResult = { ok: true; beacon: Beacon; json: string } | { ok: false; reason: 'too-large'; bytes: number };

export function fitBeacon(beacon: Beacon, limits: BeaconLimits): FitResult {
  // A name no peer may read (a tab, a newline, a bidi override: the schema refuses it) stays home;
  // the beacon is then a lower bound of the work, as with files cut for size.
  const carried = beacon.workingSet.files.filter((f) => sharable(f.file, limits) && (f.path === undefined || sharable(f.path, limits)));
  let files = carried.map((f) => collapseFileRanges(f, limits.maxRangesPerFile));
  let truncated = (beacon.truncatedFiles ?? 0) + beacon.workingSet.files.length - carried.length;
  if (files.length > limits.maxFiles) {
    // Keep the most recently edited files: they are the ones a peer is most likely to meet.
    const ordered = [...files].sort((a, b) => (b.lastEditTime ?? 0) - (a.lastEditTime ?? 0));
    truncated += files.length - limits.maxFiles;
    files = ordered.slice(0, limits.maxFiles);
  }
  const note = beacon.note !== undefined ? Array.from(beacon.note).slice(0, limits.maxNoteLength).join('') : undefined;
  const intent = beacon.intent.filter((path) => sharable(path, limits)).slice(0, limits.maxIntent);
  const expiring = beacon.intentExpiresAt?.filter(([path]) => intent.includes(path));
  const base: Beacon = {
    ...beacon,
    workingSet: { base: beacon.workingSet.base, files },
    intent,
    ...(expiring !== undefined ? { intentExpiresAt: expiring } : {}),
    ...(note !== undefined ? { note } : {}),
    ...(truncated > 0 ? { truncatedFiles: truncated } : {}),
  };
  let json = JSON.stringify(base);
  if (Buffer.byteLength(json) <= limits.maxBytes) return { ok: true, beacon: base, json };

  // Too large: the ranges are the bulk. Whole-file entries keep every file at a fraction of the size.
  const coarse: Beacon = {
    ...base,
    workingSet: { base: base.workingSet.base, files: files.map(wholeFile) },
  };
  json = JSON.stringify(coarse);
  if (Buffer.byteLength(json) <= limits.maxBytes) return { ok: true, beacon: coarse, json };
  return { ok: false, reason: 'too-large', bytes: Buffer.byteLength(json) };
}

function wholeFile(file: WorkingSetFile): WorkingSetFile {
  const { ranges: _ranges, ...rest } = file;
  return { ...rest, whole: true };
}
