/**
 * Reads the peers' beacons that the last fetch (`+refs/airspace/*:refs/airspace/remote/*`) brought
 * in, whatever the number of peers: `for-each-ref` lists the refs (or the caller's listing did),
 * an `info` request gives each `beacon.json` blob's size (so a huge blob is refused before a byte
 * of it is read), a `contents` request reads the accepted blobs in one stream (src/git/read-objects.ts:
 * inside a run both go to the run's one `cat-file --batch-command` process; alone, one process
 * each). Ref names and object names go to git as arguments or stdin lines, never through a shell.
 */
import { runGit } from '../git/exec-git.js';
import { objectContents, objectInfo } from '../git/read-objects.js';
import { cloneOfComponent, decodeAgentRefComponent, encodeAgentId, FETCHED_BEACON_PREFIX } from './agent-ref.js';
import { componentOfAreaRef, FETCHED_AREA_PREFIX } from './beacon-areas.js';
import { DEFAULT_BEACON_LIMITS, DEFAULT_BEACON_READ_BYTES, DEFAULT_MAX_AREA_BEACONS, DEFAULT_MAX_BEACONS, type BeaconLimits } from './beacon-limits.js';
import type { Beacon } from './beacon-schema.js';
import { parseBeacon, type BeaconSkipReason } from './parse-beacon.js';
import { BEACON_FILE } from './publish-beacon.js';
import { checkBeaconClaims } from './check-beacon-claims.js';
import { mapLimit } from '../traffic/limit-concurrency.js';

export interface ReadBeaconsOptions {
  readonly ttlMs?: number;
  /** Epoch ms (the caller's clock). */
  readonly now: number;
  /** Largest accepted `beacon.json`, bytes (default: limits.maxBytes, 256 KiB). */
  readonly maxBytes?: number;
  readonly limits?: Partial<BeaconLimits>;
  /** This agent's own id: its beacon of an older release (no clone in its ref) is not traffic. */
  readonly selfId?: string;
  /** This clone's id (src/state/clone-identity.ts): every beacon under it is ours, never traffic (see `own`). */
  readonly selfClone?: string;
  /**
   * The window for beacons seen only under a legacy ref: with the area beacons kept, at most this
   * many (each costs the stages after it a few git processes); the rest of a flood is ONE `BeaconOverflow`
   * entry per group (ref = the prefix, detail = how many), not one per ref. Which are kept is below
   * ("Who is kept"). Default DEFAULT_MAX_BEACONS.
   */
  readonly maxBeacons?: number;
  /**
   * At most this many beacons read under the areas the last fetch listed (every beacon that can
   * collide in this agent's areas; the bound only on a flood inside one of them). Default
   * DEFAULT_MAX_AREA_BEACONS.
   */
  readonly maxAreaBeacons?: number;
  /** At most this many `beacon.json` bytes are read to choose them (default DEFAULT_BEACON_READ_BYTES). */
  readonly maxReadBytes?: number;
  /**
   * The ownship's paths, asked only when more beacons were read than can be kept: a beacon touching
   * one of them is kept before any that touches none.
   */
  readonly relevantPaths?: () => Promise<ReadonlySet<string>>;
  readonly timeoutMs?: number;
  /**
   * The beacon refs as `for-each-ref --format=%(refname)%00%(objecttype)%00%(objectname)%00%(parent)%00%(committerdate:unix)…`
   * printed them, when the caller's own listing already included them (src/git/list-refs.ts `also`):
   * one git process fewer. Extra NUL fields after the fifth are ignored.
   */
  readonly listing?: readonly string[];
}

/**
 * The two floods, one entry each (detail = how many): `too-many` beacons seen only under a legacy
 * ref beyond the window of DEFAULT_MAX_BEACONS, `too-many-in-areas` beacons of this agent's areas
 * beyond DEFAULT_MAX_AREA_BEACONS; either also when DEFAULT_BEACON_READ_BYTES ran out first.
 */
export type BeaconOverflow = 'too-many' | 'too-many-in-areas';

export interface SkippedBeacon {
  /** Full local ref name (untrusted text: sanitize before printing). */
  readonly ref: string;
  readonly reason: BeaconSkipReason | BeaconOverflow | 'unproven-claims';
  readonly detail?: string;
}

export interface ReadBeaconsResult {
  readonly beacons: Beacon[];
  readonly skipped: SkippedBeacon[];
  /** Each read beacon's work commit (its commit's parent): no process to look it up. */
  readonly works: ReadonlyMap<Beacon, string | null>;
  /** This clone's own beacons on the remote, as listed (not read): what it published, for its own lines of work. */
  readonly own: readonly OwnBeaconRef[];
}

export interface OwnBeaconRef {
  /** The fetched ref (`refs/airspace/remote/beacons/<clone>/<agent>`). */
  readonly ref: string;
  /** The decoded agent id; null for a hashed long id. */
  readonly agent: string | null;
  /** The beacon commit's parent: the work it carried. */
  readonly work: string | null;
  /** Where its `beacon.json` is (`<commit>:beacon.json`, or a blob id): read only for its note (publishedNote). */
  readonly beaconObject?: string;
}

/**
 * The note this clone last published for `agent`, carried by a refresh (pre-push, `check --fetch`,
 * the resident) that drafts the beacon anew: only `beacon publish` sets or clears a note. The ref
 * is on a shared remote, so the bytes are bounded and only a string is taken; the draft then fits
 * it to the limits like any note (src/beacon/fit-beacon.ts).
 */
export async function publishedNote(cwd: string, own: readonly OwnBeaconRef[], agent: string): Promise<string | undefined> {
  const object = own.find((b) => b.agent === agent && b.beaconObject !== undefined)?.beaconObject;
  if (object === undefined) return undefined;
  const [found] = await objectContents(cwd, [object], { maxBytes: DEFAULT_BEACON_LIMITS.maxBytes });
  if (found?.type !== 'blob') return undefined;
  try {
    const note = (JSON.parse(Buffer.from(found.content).toString('utf8')) as { note?: unknown }).note;
    return typeof note === 'string' && note !== '' ? note : undefined;
  } catch {
    return undefined;
  }
}

/** The fetched beacons' refs (legacy and areas), as a `for-each-ref` pattern (no trailing slash). */
export const FETCHED_BEACON_REFS = 'refs/airspace/remote';

interface Candidate {
  readonly ref: string;
  readonly component: string;
  readonly query: string;
  /** The beacon commit's parent: the agent's work (null for a bare blob or a parentless commit). */
  readonly work: string | null;
  /** Its commit date for ranking (unix seconds): a date in the future ranks below every past one. */
  readonly rank: number;
  /** Listed under one of the areas the last fetch read: it can collide with this agent's work. */
  readonly inArea: boolean;
}

/**
 * Who is kept (issue 24, item 3: 60 refs dated five minutes ahead pushed a real peer out of a
 * newest-50 window; issue 27: the 51st agent was invisible). Every date is the writer's claim, so
 * no date may buy a place:
 * 0. One candidate per agent (`<clone>/<agent>`), listed under one of the areas the last fetch read
 *    (src/beacon/beacon-areas.ts: it can collide with this agent's work) or only under a legacy ref.
 * 1. Read order: the area candidates, then the legacy-only ones; in each, past dates newest first,
 *    then every ref dated in the future (more than a minute ahead of our clock), which can never
 *    outrank an honest refresh. The blobs are read in that order until DEFAULT_BEACON_READ_BYTES
 *    (16 MiB; a real beacon is a few KiB), so a legacy flood never costs an area beacon its read.
 * 2. Of those read and valid, in each group the ones that touch the ownship's paths come first, then
 *    the rest, in read order. Every area beacon is kept up to DEFAULT_MAX_AREA_BEACONS (500); the
 *    legacy-only ones fill what is left of the window of DEFAULT_MAX_BEACONS (50). Only the kept
 *    cost a claim check.
 * The bound: a real, fresh peer in this agent's areas is hidden only by (a) more than 16 MiB of valid
 * beacons in those areas dated between its last refresh and now, or (b) 500 valid beacons in them
 * touching the ownship's files ranked above it — themselves traffic, compared and reported. A peer
 * seen only under a legacy ref keeps the bound of before: 50 ranked above it.
 */
// Other machines' clocks drift by seconds; a minute ahead is a claim, not drift.
const FUTURE_GRACE_S = 60;

export async function readBeacons(cwd: string, options: ReadBeaconsOptions): Promise<ReadBeaconsResult> {
  const limits: BeaconLimits = { ...DEFAULT_BEACON_LIMITS, ...options.limits, ...(options.maxBytes !== undefined ? { maxBytes: options.maxBytes } : {}) };
  const reads = options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {};
  const git = { cwd, ...reads };
  const skipped: SkippedBeacon[] = [];
  const lines =
    options.listing ??
    (
      await runGit(
        [
          'for-each-ref',
          '--sort=-committerdate',
          '--format=%(refname)%00%(objecttype)%00%(objectname)%00%(parent)%00%(committerdate:unix)',
          FETCHED_BEACON_REFS,
        ],
        git,
      )
    ).stdout
      .toString('utf8')
      .split('\n');
  const candidates: Candidate[] = [];
  const selfComponent = options.selfId !== undefined ? encodeAgentId(options.selfId) : null;
  const own: OwnBeaconRef[] = [];
  const maxBeacons = options.maxBeacons ?? DEFAULT_MAX_BEACONS;
  const nowS = Math.floor(options.now / 1000);
  let tooMany = 0;
  // One candidate per agent (`<clone>/<agent>`): its legacy ref and its area refs usually name one
  // commit; a ref of an area it left (a lost publish record) names an older one, and the newest wins.
  const byComponent = new Map<string, Candidate>();
  for (const line of lines) {
    if (line === '') continue;
    const [ref = '', type = '', sha = '', parents = '', date = ''] = line.split('\0');
    const inArea = ref.startsWith(FETCHED_AREA_PREFIX);
    // A caller's listing holds other refs too; only beacons are judged here.
    const component = fetchedComponent(ref);
    if (component === null || component === selfComponent) continue;
    const work = parents.split(' ')[0] || null;
    const at = Number(date) || 0;
    const rank = at > nowS + FUTURE_GRACE_S ? -1 : at;
    // A commit carries `beacon.json` in its tree (what we publish); a bare blob ref is accepted too.
    const query = type === 'commit' ? `${sha}:${BEACON_FILE}` : type === 'blob' ? sha : null;
    const seen = byComponent.get(component);
    if (query === null) {
      if (!seen) skipped.push({ ref, reason: 'not-a-beacon', detail: type });
      continue;
    }
    const candidate: Candidate = { ref, component, query, work: type === 'commit' ? work : null, rank, inArea: inArea || seen?.inArea === true };
    // On a tie the legacy ref names the agent (what `beacon list` and older readers show).
    if (!seen || rank > seen.rank || (rank === seen.rank && !inArea && seen.ref.startsWith(FETCHED_AREA_PREFIX))) byComponent.set(component, candidate);
    else if (inArea && !seen.inArea) byComponent.set(component, { ...seen, inArea: true });
  }
  for (const candidate of byComponent.values()) {
    if (options.selfClone !== undefined && cloneOfComponent(candidate.component) === options.selfClone) {
      own.push({ ref: candidate.ref, agent: decodeAgentRefComponent(candidate.component), work: candidate.work, beaconObject: candidate.query });
    } else candidates.push(candidate);
  }
  // Stable: equal ranks keep the listing's order. The areas first: a flood of legacy refs reads after them.
  candidates.sort((a, b) => Number(b.inArea) - Number(a.inArea) || b.rank - a.rank);
  const areaOverflow = { count: 0 };
  const flood = (): void => {
    if (areaOverflow.count > 0) skipped.push({ ref: `${FETCHED_AREA_PREFIX}*`, reason: 'too-many-in-areas', detail: String(areaOverflow.count) });
    if (tooMany > 0) skipped.push({ ref: `${FETCHED_BEACON_PREFIX}*`, reason: 'too-many', detail: String(tooMany) });
  };
  if (candidates.length === 0) return { beacons: [], skipped, works: new Map(), own };

  const infos = await objectInfo(
    cwd,
    candidates.map((c) => c.query),
    reads,
  );
  const accepted: { candidate: Candidate; sha: string }[] = [];
  const maxReadBytes = options.maxReadBytes ?? DEFAULT_BEACON_READ_BYTES;
  let readBytes = 0;
  candidates.forEach((candidate, i) => {
    const info = infos[i];
    if (info?.type !== 'blob') skipped.push({ ref: candidate.ref, reason: 'not-a-beacon', detail: info?.type ?? 'missing' });
    else if (info.size > limits.maxBytes) skipped.push({ ref: candidate.ref, reason: 'too-large', detail: String(info.size) });
    else if (readBytes + info.size > maxReadBytes) {
      if (candidate.inArea) areaOverflow.count++;
      else tooMany++;
    } else {
      readBytes += info.size;
      accepted.push({ candidate, sha: info.sha });
    }
  });
  if (accepted.length === 0) {
    flood();
    return { beacons: [], skipped, works: new Map(), own };
  }

  const blobs = (
    await objectContents(
      cwd,
      accepted.map((a) => a.sha),
      { ...reads, maxBytes: readBytes + accepted.length * 128 + 1024 },
    )
  ).map((object) => object?.content);
  let parsedBeacons: { candidate: Candidate; beacon: Beacon }[] = [];
  accepted.forEach(({ candidate }, i) => {
    const blob = blobs[i];
    if (!blob) {
      skipped.push({ ref: candidate.ref, reason: 'unreadable' });
      return;
    }
    const parsed = parseBeacon(blob, candidate.component, { limits, now: options.now, ...(options.ttlMs !== undefined ? { ttlMs: options.ttlMs } : {}) });
    if (parsed.ok) parsedBeacons.push({ candidate, beacon: parsed.beacon });
    else skipped.push({ ref: candidate.ref, reason: parsed.reason, ...(parsed.detail !== undefined ? { detail: parsed.detail } : {}) });
  });
  const inArea = parsedBeacons.filter(({ candidate }) => candidate.inArea);
  const legacyOnly = parsedBeacons.filter(({ candidate }) => !candidate.inArea);
  const maxAreaBeacons = options.maxAreaBeacons ?? DEFAULT_MAX_AREA_BEACONS;
  if (inArea.length > maxAreaBeacons || inArea.length + legacyOnly.length > Math.max(maxBeacons, inArea.length)) {
    const paths = options.relevantPaths ? await options.relevantPaths() : new Set<string>();
    const touches = ({ beacon }: { beacon: Beacon }): boolean =>
      beacon.workingSet.files.some((f) => paths.has(f.file) || (f.path !== undefined && paths.has(f.path)));
    const ranked = (group: typeof parsedBeacons) => [...group.filter(touches), ...group.filter((b) => !touches(b))];
    // Every beacon of this agent's areas (a flood inside one: the first DEFAULT_MAX_AREA_BEACONS,
    // those touching its files first); beacons of other areas (the legacy refs) fill the rest of the window.
    const keptInArea = ranked(inArea).slice(0, maxAreaBeacons);
    const keptLegacy = ranked(legacyOnly).slice(0, Math.max(0, maxBeacons - keptInArea.length));
    areaOverflow.count += inArea.length - keptInArea.length;
    tooMany += legacyOnly.length - keptLegacy.length;
    parsedBeacons = [...keptInArea, ...keptLegacy];
  }
  flood();
  // Right-of-way claims must be what the beacon's own commits show (no process for a beacon that
  // claims nothing, the usual case before a branch is pushed).
  const verdicts = await mapLimit(parsedBeacons, 4, ({ candidate, beacon }) => checkBeaconClaims(cwd, beacon, candidate.work, git));
  const beacons: Beacon[] = [];
  const works = new Map<Beacon, string | null>();
  parsedBeacons.forEach(({ candidate, beacon }, i) => {
    const verdict = verdicts[i]!;
    if (!verdict.ok) skipped.push({ ref: candidate.ref, reason: 'unproven-claims', detail: verdict.detail });
    else {
      beacons.push(beacon);
      works.set(beacon, candidate.work);
    }
  });
  return { beacons, skipped, works, own };
}

/** The agent a fetched beacon ref stands for (`<clone>/<agent>`, legacy or area ref); null for any other ref. */
export function fetchedComponent(ref: string): string | null {
  if (ref.startsWith(FETCHED_BEACON_PREFIX)) return ref.slice(FETCHED_BEACON_PREFIX.length);
  return componentOfAreaRef(ref);
}
