import { realpath } from 'node:fs/promises';
import { relative, sep } from 'node:path';
import { compileGlobs } from '../config/compile-globs.js';
import type { Beacon } from '../beacon/beacon-schema.js';
import { readBeacons } from '../beacon/read-beacons.js';
import { qualifiedBeaconId } from '../run/beacon-traffic.js';
import { cloneIdentity } from '../state/clone-identity.js';
import { AirspaceError } from '../errors.js';
import { fileHunks, fileSubjects, type FileHunk } from '../git/file-hunks.js';
import { withRunScope } from '../git/run-scope.js';
import { peerDiffMessages } from '../messages/agent-views.js';
import { PEER_DIFF_SCHEMA, type PeerDiffFile, type PeerDiffHunk, type PeerDiffQuery, type PeerDiffReport } from '../report/peer-diff-report.js';
import { sanitizeText } from '../report/sanitize-text.js';
import { normalizeIntentPath } from '../state/intent-store.js';
import { collectAirspace } from '../traffic/collect-airspace.js';
import { targetOf, type LineOfWork } from '../traffic/line-of-work.js';
import { workingSetAgainst } from '../traffic/working-set-against.js';
import type { WorkingSet, WorkingSetFile } from '../traffic/working-set.js';
import { matchPeer } from './match-peer.js';
import { openRepository } from '../run/open-repository.js';

/**
 * `diff PEER [FILE]`: the other side's hunks near this agent's own changes, so an agent told
 * "traffic in src/api.ts" can see what the peer actually wrote there. Both sides are read in the
 * pair's merge-base coordinates (the coordinates the advisory was computed in): a worktree peer
 * through its snapshot commit (uncommitted work included), a branch through its tip, a beacon
 * through the work commit it published. Nothing of the user's is touched: like every run it may
 * add snapshot objects and cache entries under the git dir; the diff itself is diff-tree and log.
 */
export interface PeerDiffRequest extends PeerDiffQuery {
  readonly cwd: string;
  readonly now: number;
}

/** Files looked at, at most (each is one `diff-tree` and one `log`). */
const MAX_FILES = 50;
/** One file's raw diff above this is not read at all (a generated file, a vendored blob). */
const MAX_FILE_DIFF_BYTES = 2 * 1024 * 1024;
const MAX_LINE = 400;
const SUBJECT_CAP = 5;

interface Side {
  readonly source: PeerDiffReport['source'];
  readonly id: string;
  readonly base: string;
  readonly tip: string;
  readonly target: string;
  readonly uncommittedPaths: ReadonlySet<string>;
  readonly own: WorkingSet;
  readonly theirs: WorkingSet;
  /** FILE as a repo-relative path. */
  readonly file?: string;
  /** Where git runs: pathspecs given in a subdirectory would be read relative to it. */
  readonly toplevel: string;
}

export function peerDiff(request: PeerDiffRequest): Promise<PeerDiffReport> {
  // `diff` has no budget of its own: its run scope (a signal that never aborts) shares the pinned
  // environment and one object reader (the beacons' sizes and bodies) and closes them at the end.
  return withRunScope(new AbortController().signal, () => diffPeer(request));
}

async function diffPeer(request: PeerDiffRequest): Promise<PeerDiffReport> {
  const side = await resolveSide(request);
  const file = side.file;
  const ownByPath = new Map(side.own.files.map((f) => [f.file, f]));
  const candidates = file !== undefined ? side.theirs.files.filter((f) => f.file === file) : side.theirs.files.filter((f) => ownByPath.has(f.file));
  const files: PeerDiffFile[] = [];
  const cut = { files: 0, hunks: 0, bytes: 0 };
  let hunksLeft = request.maxHunks;
  let bytesLeft = request.maxBytes;
  for (const theirs of candidates.slice(0, MAX_FILES)) {
    const own = ownByPath.get(theirs.file);
    const ownRanges = own && !own.whole && own.origin !== 'intent' ? (own.ranges ?? null) : null;
    const [diff, subjects] = await Promise.all([
      fileHunks(side.toplevel, side.base, side.target, theirs.file, { context: request.context, maxBytes: MAX_FILE_DIFF_BYTES }),
      // Subjects are a courtesy: a beacon's head may not be here, and that must not hide the hunks.
      fileSubjects(side.toplevel, side.base, side.tip, theirs.file, SUBJECT_CAP).catch(() => [] as string[]),
    ]);
    if (diff.tooLarge) cut.files++;
    const near =
      own === undefined ? diff.hunks : diff.hunks.filter((hunk) => ownRanges === null || ownRanges.some((range) => gap(range, hunk.range) <= request.near));
    const hunks: PeerDiffHunk[] = [];
    for (const hunk of near) {
      const shown = hunksLeft > 0 ? clip(hunk, bytesLeft) : null;
      if (shown === null) {
        cut.hunks++;
        continue;
      }
      hunksLeft--;
      bytesLeft -= shown.bytes;
      cut.bytes += shown.cutBytes;
      hunks.push(shown.hunk);
    }
    if (hunks.length === 0 && !diff.binary && !diff.tooLarge) continue;
    files.push({
      path: sanitizeText(theirs.file),
      ownRanges: ownRanges?.map(inclusive) ?? null,
      allHunks: own === undefined,
      subjects: subjects.map((s) => sanitizeText(s, { maxLength: 72 })),
      uncommitted: side.uncommittedPaths.has(theirs.path ?? theirs.file),
      binary: diff.binary,
      hunks,
    });
  }
  cut.files += Math.max(0, candidates.length - MAX_FILES);
  return {
    schema: PEER_DIFF_SCHEMA,
    peer: sanitizeText(side.id),
    source: side.source,
    base: side.base,
    context: request.context,
    near: request.near,
    files,
    cut,
  };
}

/** Lines between two half-open ranges; 0 when they overlap or touch. */
function gap(a: readonly [number, number], b: readonly [number, number]): number {
  return Math.max(0, Math.max(a[0], b[0]) - Math.min(a[1], b[1]));
}

/** Half-open `[s, e)` (working sets) → the report's inclusive `[s, e-1]`; an insertion before s is `[s, s-1]`. */
function inclusive(range: readonly [number, number]): readonly [number, number] {
  return [range[0], range[1] - 1];
}

/** The hunk, sanitized (tabs kept: the peer's code, byte for byte), cut to the bytes left (whole lines; null when not even one fits). */
function clip(hunk: FileHunk, bytesLeft: number): { hunk: PeerDiffHunk; bytes: number; cutBytes: number } | null {
  const lines: string[] = [];
  let bytes = 0;
  let cutBytes = 0;
  for (const raw of hunk.lines) {
    const line = sanitizeText(raw, { maxLength: MAX_LINE, allowTabs: true });
    const size = Buffer.byteLength(line) + 1;
    if (bytes + size > bytesLeft) cutBytes += size;
    else {
      lines.push(line);
      bytes += size;
    }
  }
  if (lines.length === 0 && hunk.lines.length > 0) return null;
  return { hunk: { range: inclusive(hunk.range), header: sanitizeText(hunk.header, { maxLength: MAX_LINE }), lines }, bytes, cutBytes };
}

async function resolveSide(request: PeerDiffRequest): Promise<Side> {
  const { repo, config } = await openRepository(request.cwd);
  const ignore = compileGlobs(config.ignore);
  const airspace = await collectAirspace(request.cwd, {
    remote: config.remote,
    ...(config.trunk ? { trunk: config.trunk } : {}),
    include: config.peers.include,
    exclude: config.peers.exclude,
    maxAgeDays: config.peers.maxAgeDays,
    at: request.now,
    ignore,
    repo,
    pairs: 'ownship',
  });
  const ownship = airspace.ownship;
  if (ownship === null) throw new AirspaceError('environment', 'no-ownship', peerDiffMessages.noOwnship);
  const file = {
    toplevel: repo.toplevel,
    ...(request.file === undefined
      ? {}
      : { file: normalizeIntentPath(request.file, { toplevel: repo.toplevel, prefix: await prefixOf(request.cwd, repo.toplevel) }) }),
  };
  const line = matchPeer(request.peer, airspace.traffic);
  if (line !== null) return { ...localSide(line, ownship.id, airspace), ...file };
  const clone = await cloneIdentity(repo.commonDir);
  const beacons = await readBeacons(request.cwd, {
    now: request.now,
    ttlMs: config.beacons.ttlMs,
    maxBytes: config.beacons.maxBytes,
    selfId: ownship.id,
    selfClone: clone.id,
  });
  // A peer's beacon by its own name, or by the machine-qualified id a check showed (two machines on one branch).
  const beacon = beacons.beacons.find((b) => qualifiedBeaconId(b) === request.peer) ?? beacons.beacons.find((b) => b.agent === request.peer);
  if (beacon) return { ...(await beaconSide(request.cwd, beacon, beacons.works.get(beacon) ?? null, ownship, ignore)), ...file };
  const known = [...airspace.traffic.map((l) => l.id), ...beacons.beacons.map((b) => b.agent)].map((id) => sanitizeText(id, { maxLength: 80 }));
  throw new AirspaceError('usage', 'peer-not-found', peerDiffMessages.notFound(sanitizeText(request.peer, { maxLength: 80 }), known.slice(0, 20)));
}

/** Where `cwd` sits in the worktree (`src/`), so FILE reads as the user typed it, like `intent add`. */
async function prefixOf(cwd: string, toplevel: string): Promise<string> {
  const rel = relative(toplevel, await realpath(cwd))
    .split(sep)
    .join('/');
  return rel === '' ? '' : `${rel}/`;
}

function localSide(line: LineOfWork, ownId: string, airspace: Awaited<ReturnType<typeof collectAirspace>>): Omit<Side, 'toplevel'> {
  const pair = airspace.pairs.find((p) => p.a === ownId && p.b === line.id);
  if (!pair) {
    const why = airspace.unknown.find((u) => u.id === line.id)?.reason ?? 'not comparable';
    throw new AirspaceError('git', 'peer-no-base', peerDiffMessages.noBase(sanitizeText(line.id), sanitizeText(why)));
  }
  return {
    source: line.kind === 'beacon' ? 'beacon' : line.kind,
    id: line.id,
    base: pair.base,
    tip: line.tip,
    target: targetOf(line),
    uncommittedPaths: new Set(line.uncommittedPaths ?? []),
    own: pair.workingSetA,
    theirs: pair.workingSetB,
  };
}

/** A remote peer known by its beacon: its published work commit against the beacon's base. */
async function beaconSide(
  cwd: string,
  beacon: Beacon,
  work: string | null,
  ownship: LineOfWork,
  ignore: (path: string) => boolean,
): Promise<Omit<Side, 'toplevel'>> {
  if (work === null || beacon.base === null)
    throw new AirspaceError('git', 'beacon-work-missing', peerDiffMessages.beaconWorkMissing(sanitizeText(beacon.agent)));
  const own = await workingSetAgainst(cwd, beacon.base, ownship, ignore);
  const uncommitted = beacon.workingSet.files.filter((f: WorkingSetFile) => f.origin === 'uncommitted').map((f) => f.path ?? f.file);
  return {
    source: 'beacon',
    id: beacon.agent,
    base: beacon.base,
    tip: beacon.head,
    target: work,
    uncommittedPaths: new Set(uncommitted),
    own,
    theirs: beacon.workingSet,
  };
}
