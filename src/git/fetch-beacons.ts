import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { AirspaceError, isAirspaceError } from '../errors.js';
import { writeFileAtomic } from '../fs/atomic-write.js';
import { tryLock, unlock } from '../fs/lock-file.js';
import { firstLine, runGit } from './exec-git.js';
import { gitMessages } from '../messages/command-line.js';
import { localAreaRef, REMOTE_AREA_PREFIX } from './fetched-area-refs.js';

/**
 * The beacon part of the traffic fetch, apart from the branches (src/git/fetch-traffic.ts), so a
 * hostile beacon can cost neither the branch fetch nor the object store:
 *
 * 1. `ls-remote` lists the remote's `refs/airspace/*` (names and ids only, no object crosses);
 *    ids we already have (under a ref of ours, or in the store: our own beacon just published) or
 *    refused before are not fetched again. A selective read (`prefixes`: this agent's areas,
 *    docs/decisions/beacon-areas.md) lists only those prefixes, server-side, and fetches their new
 *    objects in the same step into a scratch repository (listSelected); a refusal remembered then
 *    spares only step 4 (on a remote that ignores filters the refused bytes cross again, in scratch).
 *    The dependency areas of a selective read (`nearby`) are listed beside them, commits only, and
 *    only the refs within the read bound go on to step 2, by id: a listing larger than what a run
 *    reads costs its names and commits, never the objects of beacons it could not read.
 * 2. The new ids are fetched by id (no ref is written) into a QUARANTINE object directory
 *    (`GIT_OBJECT_DIRECTORY`, the real store as its alternate), as receive-pack does: a fetch that is
 *    killed or refused leaves its `tmp_obj_*`/`tmp_pack_*` there, and the directory is removed.
 *    With `--filter=blob:limit=<maxBytes>`, so where the remote honours filters (`uploadpack.allowFilter`)
 *    no byte of an oversized `beacon.json` crosses the network. The filter needs a promisor remote:
 *    given only as `-c remote.<r>.promisor=true -c remote.<r>.partialclonefilter=…`, git 2.39 writes
 *    nothing to the user's config (a bare `--filter` registers the remote as a partial clone in
 *    `.git/config` and bumps `core.repositoryformatversion`). A remote that does not honour filters
 *    ("filtering not recognized by server, ignoring" — every plain path remote and `file://` without
 *    `uploadpack.allowFilter`) sends everything: the bytes cross once, within this part's own
 *    timeout, land only in the quarantine, and the refusal is remembered so they never cross again.
 * 3. Each new `beacon.json` is sized in the quarantine; an oversized one, or a ref that is no beacon
 *    (no `beacon.json`, a tree or tag), is refused: the reader would skip it anyway, and its objects
 *    (a 300 MB file beside a small `beacon.json`) would otherwise be fetched in full by step 4.
 * 4. A filtered pack lacks the work commits' big blobs, and a ref reaching a missing object makes
 *    the user's `git gc` fail ("unable to read …"), so the accepted ids are fetched again without a
 *    filter into a fresh quarantine (skipped when the first pack was complete and nothing was
 *    refused), whose packs are moved into the store; only then does ONE `update-ref --stdin`
 *    transaction point `refs/airspace/remote/*` at exactly the listing minus the refused refs.
 */
export interface BeaconFetchOptions {
  readonly cwd: string;
  readonly remote: string;
  readonly commonDir: string;
  readonly maxBytes: number;
  readonly timeoutMs: number;
  /**
   * Selective read (docs/decisions/beacon-areas.md): the remote ref prefixes to list (each ending in
   * `/`, under `refs/airspace/`), asked while the branch fetch runs; null or absent: every
   * `refs/airspace/*` ref. A plain list is read whole; a `BeaconSelection` reads its own prefixes
   * whole and its nearby ones within `maxRefs`. The local copy then mirrors exactly what was read.
   */
  readonly prefixes?: () => Promise<readonly string[] | BeaconSelection | null>;
  /**
   * The nearby prefixes are fetched only while the refs fetched stay within this many (own prefixes
   * included; they are always fetched whole). Default DEFAULT_MAX_NEARBY_REFS.
   */
  readonly maxRefs?: number;
}

export interface BeaconSelection {
  /** Read whole, whatever their number of refs: the run's own areas, the wide one, its published ones, the legacy prefix. */
  readonly own: readonly string[];
  /**
   * The dependency areas, nearest first: listed (names, ids and commits, no beacon's blob or work),
   * then fetched area by area, newest first, while the refs fetched stay within `maxRefs`.
   */
  readonly nearby: readonly string[];
}

export interface BeaconFetchResult {
  /** Beacon refs refused by size this time or before (not fetched). */
  readonly refused: number;
  /** Beacon refs the remote listed to us (after its own prefix filter on a selective read). */
  readonly listed: number;
  /** Whether the listing was selective (by area prefixes) or every `refs/airspace/*` ref. */
  readonly selective: boolean;
  /** Refs of the nearby prefixes listed but not fetched (over `maxRefs`), and in how many of those prefixes. */
  readonly nearbyLeftOut?: { readonly refs: number; readonly areas: number };
  /** The nearby listing failed (why): the own areas were read all the same. */
  readonly nearbyFailed?: string;
  /** The own areas alone held `ownRefs` refs, `maxRefs` or more: the nearby prefixes were not even listed. */
  readonly nearbyNotListed?: { readonly ownRefs: number };
}

/** The read bound (src/beacon/beacon-limits.ts DEFAULT_MAX_AREA_BEACONS): more could not be read anyway. */
export const DEFAULT_MAX_NEARBY_REFS = 500;

const REMOTE_PREFIX = 'refs/airspace/';
const BEACONS_PREFIX = 'refs/airspace/beacons/';
const LOCAL_PREFIX = 'refs/airspace/remote/';
const OID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;
// What git's check-ref-format would refuse, checked before a name joins the one transaction.
const REF_TAIL = /^(?!.*(?:\.\.|\/\/|\/\.|@\{|\.lock(?:\/|$)))[A-Za-z0-9_%.@/-]+$/;
// A selective read's prefixes: `refs/airspace/<safe tail>/`, nothing git could read as a pattern.
const SELECTABLE = /^refs\/airspace\/(?!remote\/)[A-Za-z0-9_%/-]+\/$/;
const MAX_REMEMBERED = 1000;
// `100644 beacon.json\0` and one object id (20 or 32 bytes): 51 bytes at most.
const ONE_ENTRY_TREE = 64;
// A quarantine older than this was left by a killed process (the fetch's timeout is far shorter).
const STALE_MS = 10 * 60 * 1000;

export async function fetchBeacons(options: BeaconFetchOptions): Promise<BeaconFetchResult> {
  const { cwd, commonDir } = options;
  const deadline = performance.now() + options.timeoutMs;
  const left = (): number => Math.max(1, Math.floor(deadline - performance.now()));
  const home = join(commonDir, 'airspace');
  // What is here already is read while the run works out its areas (a diff of the worktree), not after.
  const [asked, local, refusedBefore] = await Promise.all([
    options.prefixes?.(),
    runGit(['for-each-ref', '--format=%(objectname) %(refname)', LOCAL_PREFIX], { cwd, timeoutMs: left() }).then((r) => lines(r.stdout)),
    readRefused(home),
    sweepStaleQuarantines(home),
  ]);
  const selection = options.prefixes ? selectionOf(asked) : undefined;
  if (!selection) {
    const listing = await listAll(options, `${REMOTE_PREFIX}*`, left());
    const done = await fetchListed(options, listing, local, refusedBefore, left);
    return { refused: done.refused, listed: listing.refs.size, selective: false };
  }
  // The areas through the selective listing; the legacy refs (the migration window) through
  // ls-remote as before: the whole legacy prefix is no selection, and a scratch fetch of thousands of
  // refs writes thousands of loose refs on every run (2.3 s against 0.14 s for 5,000, measured).
  const legacy = selection.own.includes(BEACONS_PREFIX);
  const ownPrefixes = selection.own.filter((prefix) => prefix !== BEACONS_PREFIX);
  const nearbyPrefixes = selection.nearby.filter((prefix) => prefix !== BEACONS_PREFIX && !ownPrefixes.includes(prefix));
  // The own areas are listed first, then the nearby ones (another scratch repository) while the own
  // areas' objects are sized and taken in: when the own areas alone fill the read bound, no nearby ref
  // could be fetched, and their listing is not asked for at all — for the pusher of the hottest area
  // it was ~1 MiB of names and commits of the 4,200 nearby refs it had no room for.
  const areaPart = await listSelected(options, ownPrefixes, left());
  // Own refs already refused for their size are never fetched again: they take no room (as in chooseNearby).
  const ownFetchable = [...areaPart.refs.values()].filter((sha) => !refusedBefore.has(sha)).length;
  const room = Math.max(0, (options.maxRefs ?? DEFAULT_MAX_NEARBY_REFS) - ownFetchable);
  const ownFill = nearbyPrefixes.length > 0 && room === 0;
  const nearbyPart: Promise<{ listing: Listing; failed?: string }> =
    nearbyPrefixes.length > 0 && !ownFill
      ? listSelected(options, nearbyPrefixes, left(), 'nearby').then(
          async (listing) => {
            await listing.probe?.release();
            return { listing };
          },
          // The nearby listing is the unbounded one: its failure (a timeout on a cold listing of
          // thousands of refs) must not cost the own areas, where a planted beacon is always read.
          (reason: unknown) => ({ listing: { refs: new Map() }, failed: nearbyFailure(reason) }),
        )
      : Promise.resolve({ listing: { refs: new Map() } });
  // Awaited below; until then a cut run's rejection must not count as unhandled.
  nearbyPart.catch(() => undefined);
  let refused = 0;
  let listed = 0;
  let known: ReadonlySet<string> = refusedBefore;
  let leftOut = { refs: 0, areas: 0 };
  let nearbyFailed: string | undefined;
  try {
    const isLegacy = (line: string): boolean => line.includes(` ${LOCAL_PREFIX}beacons/`);
    const ownLocal = ownPrefixes.map(localPrefixOf);
    const isOwn = (line: string): boolean => ownLocal.some((prefix) => line.includes(` ${prefix}`));
    const areas = await fetchListed(
      options,
      areaPart,
      local.filter((line) => !isLegacy(line) && isOwn(line)),
      known,
      left,
    );
    refused += areas.refused;
    listed += areaPart.refs.size;
    known = areas.refusedAll;
    const brought = [...areaPart.refs.values()].filter((sha) => !known.has(sha));
    const near = await nearbyPart;
    nearbyFailed = near.failed;
    const chosen = chooseNearby(near.listing, nearbyPrefixes, room, refusedBefore);
    leftOut = chosen.leftOut;
    // The nearby areas' chosen refs, fetched by id (the listing brought their commits only); every
    // other local area ref goes, as `--prune` would.
    const nearby = await fetchListed(
      options,
      { refs: chosen.refs },
      local.filter((line) => !isLegacy(line) && !isOwn(line)),
      known,
      left,
      brought,
    );
    refused += nearby.refused;
    listed += near.listing.refs.size;
    known = nearby.refusedAll;
    const legacyPart: Listing = legacy ? await listAll(options, `${BEACONS_PREFIX}*`, left()) : { refs: new Map() };
    // A beacon of this release stands under both: its area part brought the objects in already.
    const held = [...brought, ...[...chosen.refs.values()].filter((sha) => !known.has(sha))];
    const old = await fetchListed(options, legacyPart, local.filter(isLegacy), known, left, held);
    refused += old.refused;
    listed += legacyPart.refs.size;
  } finally {
    // Never leave the nearby listing running (or its quarantine behind) when the own part failed.
    await nearbyPart.catch(() => undefined);
    await areaPart.probe?.release();
  }
  return {
    refused,
    listed,
    selective: true,
    ...(leftOut.refs > 0 ? { nearbyLeftOut: leftOut } : {}),
    ...(nearbyFailed !== undefined ? { nearbyFailed } : {}),
    ...(ownFill ? { nearbyNotListed: { ownRefs: ownFetchable } } : {}),
  };
}

/** Why the nearby listing failed (git, or its scratch repository on disk), as a line; an abort of the run is no failure of the listing. */
function nearbyFailure(reason: unknown): string {
  if (isAirspaceError(reason)) {
    if (reason.code === 'git-cancelled' || reason.code === 'over-budget') throw reason;
    return reason.message;
  }
  if (reason instanceof Error && typeof (reason as NodeJS.ErrnoException).code === 'string') return reason.message;
  throw reason;
}

/** What `prefixes` answered, checked: nothing git could read as a pattern, and a plain list read whole. */
function selectionOf(asked: readonly string[] | BeaconSelection | null | undefined): BeaconSelection | undefined {
  if (!asked) return undefined;
  const safe = (prefixes: readonly string[]): string[] => prefixes.filter((prefix) => SELECTABLE.test(prefix));
  if (isPrefixList(asked)) return { own: safe(asked), nearby: [] };
  return { own: safe(asked.own), nearby: safe(asked.nearby) };
}

function isPrefixList(asked: readonly string[] | BeaconSelection): asked is readonly string[] {
  return Array.isArray(asked);
}

/** `refs/airspace/areas/<key>/` → where its fetched copies stand here. */
function localPrefixOf(prefix: string): string {
  return `${LOCAL_PREFIX}${prefix.slice(REMOTE_PREFIX.length)}`;
}

/**
 * The nearby refs to fetch: area by area in the order given (nearest first), in each the newest first
 * (a date more than a minute ahead of our clock last: it is the writer's claim), until `room` refs.
 * A beacon standing in several of them counts once. The bytes a read costs are then bounded by the
 * read bound, whatever the listing: the 15.6 MiB a Zipf graph's median pusher fetched for beacons it
 * could never read (docs/decisions/beacon-areas.md).
 */
function chooseNearby(
  listing: Listing,
  prefixes: readonly string[],
  room: number,
  refused: ReadonlySet<string>,
): { refs: Map<string, string>; leftOut: { refs: number; areas: number } } {
  const refs = new Map<string, string>();
  const taken = new Set<string>();
  const nowS = Date.now() / 1000;
  let leftRefs = 0;
  let leftAreas = 0;
  for (const prefix of prefixes) {
    const local = localPrefixOf(prefix);
    const inArea = [...listing.refs].filter(([ref]) => ref.startsWith(local));
    const rank = (ref: string): number => {
      const at = listing.dates?.get(ref) ?? 0;
      return at > nowS + FUTURE_GRACE_S ? -1 : at;
    };
    inArea.sort(([a], [b]) => rank(b) - rank(a) || (a < b ? -1 : a > b ? 1 : 0));
    let left = 0;
    for (const [ref, sha] of inArea) {
      // Refused by size before: never fetched, so it takes no room (a flood of oversized beacons
      // dated "now" would otherwise keep every real one of the area out, run after run).
      if (refused.has(sha)) continue;
      if (taken.has(sha) || taken.size < room) {
        taken.add(sha);
        refs.set(ref, sha);
      } else left++;
    }
    leftRefs += left;
    if (left > 0) leftAreas++;
  }
  return { refs, leftOut: { refs: leftRefs, areas: leftAreas } };
}

interface Listing {
  /** Local name (`refs/airspace/remote/…`) → object id, as the remote listed them. */
  readonly refs: Map<string, string>;
  /** A selective listing's scratch repository: its objects are the probe's (step 2) already. */
  readonly probe?: Quarantine & { readonly release: () => Promise<void> };
  /** A nearby listing's commit dates (unix seconds), by local name. */
  readonly dates?: Map<string, number>;
}

/**
 * The two selective listings, each in its own scratch repository kept between runs:
 * - `listing`: the prefixes read whole; its objects are the probe (step 2), sized then accepted;
 * - `nearby`: the dependency areas, listed with `--filter=tree:0` (each beacon's commit and its work's,
 *   ≈ 100–200 bytes a ref, none of their trees or blobs), chosen within the read bound, then fetched
 *   by id like the legacy refs. Its commits stay there (the next run's haves) until PACKS_KEPT packs.
 */
type ListingKind = 'listing' | 'nearby';
const PACKS_KEPT = 8;
// Other machines' clocks drift by seconds; a minute ahead is a claim, not drift (as src/beacon/read-beacons.ts).
const FUTURE_GRACE_S = 60;

/** Step 1, every beacon (or every legacy one): `ls-remote` of `refs/airspace/*`, names and ids only. */
async function listAll(options: BeaconFetchOptions, pattern: string, timeoutMs: number): Promise<Listing> {
  const listed = await runGit(['ls-remote', '--refs', '--end-of-options', options.remote, pattern], { cwd: options.cwd, timeoutMs });
  const refs = new Map<string, string>();
  for (const line of lines(listed.stdout)) {
    const [sha = '', ref = ''] = line.split('\t');
    addListed(refs, sha, ref);
  }
  return { refs };
}

function addListed(refs: Map<string, string>, sha: string, ref: string): void {
  if (!OID.test(sha) || !ref.startsWith(REMOTE_PREFIX)) return;
  const tail = ref.slice(REMOTE_PREFIX.length);
  // Our own copies live under refs/airspace/remote/: a remote ref there is not a beacon.
  if (!REF_TAIL.test(tail) || tail.startsWith('remote/')) return;
  if (!ref.startsWith(REMOTE_AREA_PREFIX)) {
    refs.set(`${LOCAL_PREFIX}${tail}`, sha);
    return;
  }
  // One directory per area here (src/git/fetched-area-refs.ts); a name no publisher writes is no beacon.
  const local = localAreaRef(ref);
  if (local !== null) refs.set(local, sha);
}

/**
 * Steps 1 and 2 of a selective read in one `git fetch`. git 2.39's `ls-remote <remote> <pattern>`
 * sends no `ref-prefix` (checked with GIT_TRACE_PACKET: the server advertises every ref, the client
 * filters), but `git fetch` sends one per refspec under protocol v2, so the server lists only these
 * prefixes. The fetch runs in a scratch bare repository under `<common-dir>/airspace/` (openScratch):
 * the real store is its alternate (its refs are the haves: what we hold never crosses again), its
 * config includes the user's (the remote's url, credentials, insteadOf), its refs are the listing,
 * and its objects are the quarantine the sizes are read in. Nothing of it reaches the user's
 * repository but what steps 3–4 accept.
 */
/** git's words for a ref it cannot lock because a `.lock` file is in the way. */
const LEFT_LOCK = /cannot lock ref|\.lock'?: File exists/i;

async function listSelected(options: BeaconFetchOptions, prefixes: readonly string[], timeoutMs: number, kind: ListingKind = 'listing'): Promise<Listing> {
  if (prefixes.length === 0) return { refs: new Map() };
  const home = join(options.commonDir, 'airspace');
  await mkdir(home, { recursive: true });
  const deadline = performance.now() + timeoutMs;
  const kept = await openKeptScratch(home, options.commonDir, kind);
  if (kept) {
    try {
      return await fetchIntoScratch(options, prefixes, Math.max(1, Math.floor(deadline - performance.now())), kept, kind);
    } catch (error) {
      // A fetch killed mid-way can leave a ref's `.lock` behind, and every later fetch there would
      // fail on it: the kept listing goes (still under our lock), and this run tries once more in a
      // fresh scratch. Any other failure (the remote unreachable, refused credentials) would fail
      // there too: a second network attempt inside the budget, and the listing lost for nothing.
      if (!isAirspaceError(error) || !LEFT_LOCK.test(error.message)) {
        await kept.release();
        throw error;
      }
      await kept.discard();
    }
  }
  const fresh = await openFreshScratch(home, options.commonDir);
  try {
    return await fetchIntoScratch(options, prefixes, Math.max(1, Math.floor(deadline - performance.now())), fresh, kind);
  } catch (error) {
    await fresh.release();
    throw error;
  }
}

/** The fetch into one scratch repository and its listing; on a failure the caller releases or discards it. */
async function fetchIntoScratch(
  options: BeaconFetchOptions,
  prefixes: readonly string[],
  timeoutMs: number,
  scratch: Scratch,
  kind: ListingKind,
): Promise<Listing> {
  const refs = new Map<string, string>();
  const dates = new Map<string, number>();
  const promisor = `remote.${options.remote}`;
  const filter = kind === 'nearby' ? 'tree:0' : `blob:limit=${options.maxBytes}`;
  const env = { GIT_DIR: scratch.root };
  const shallow = kind === 'nearby' && !(await exists(join(scratch.root, 'shallow')));
  const result = await runGit(
    [
      '-c',
      'fetch.unpackLimit=1',
      '-c',
      `${promisor}.promisor=true`,
      '-c',
      `${promisor}.partialclonefilter=${filter}`,
      'fetch',
      // A kept listing mirrors the remote: a beacon deleted there goes here (only under these refspecs).
      '--prune',
      // The nearby listing wants each beacon's commit for its date, not the work commit behind it: a
      // first listing is shallow. A later one is not: a shallow repository's `--depth` fetch asks for
      // every listed tip again (measured: twice the bytes of a warm read), a plain one only for new tips.
      ...(shallow ? ['--depth=1'] : []),
      '--no-tags',
      '--no-write-fetch-head',
      '--no-auto-maintenance',
      '--no-recurse-submodules',
      `--filter=${filter}`,
      '--end-of-options',
      options.remote,
      ...prefixes.map((prefix) => `+${prefix}*:${prefix}*`),
    ],
    // From the worktree's top, where the user's own `git fetch` resolves a relative remote url.
    // A `--depth` fetch whose refspecs match no ref exits 1 with nothing but warnings (git 2.39; a
    // plain fetch exits 0): no beacon in those areas, which is the usual case, not a failed fetch.
    { cwd: await worktreeTop(options.cwd), timeoutMs, env, ...(shallow ? { okCodes: [1] } : {}) },
  );
  const complaint = result.stderr.split('\n').find((line) => line.trim() !== '' && !line.startsWith('warning: '));
  if (result.code !== 0 && complaint !== undefined) {
    throw new AirspaceError('git', 'git-failed', gitMessages.failed('fetch', firstLine(result.stderr)), { code: result.code, stderr: result.stderr });
  }
  const format = kind === 'nearby' ? '%(objectname) %(committerdate:unix) %(refname)' : '%(objectname) %(refname)';
  const listed = await runGit(['for-each-ref', `--format=${format}`, REMOTE_PREFIX], { cwd: options.cwd, timeoutMs, env });
  const others: string[] = [];
  for (const line of lines(listed.stdout)) {
    const fields = line.split(' ');
    const ref = fields.at(-1) ?? '';
    if (!prefixes.some((prefix) => ref.startsWith(prefix))) {
      others.push(`delete ${ref}`);
      continue;
    }
    addListed(refs, fields[0] ?? '', ref);
    const local = localAreaRef(ref);
    if (kind === 'nearby' && local !== null) dates.set(local, Number(fields[1]) || 0);
  }
  // Areas an earlier run read and this one does not (its work moved): not this run's listing, and
  // a kept listing would otherwise grow with every area ever read.
  if (others.length > 0) await runGit(['update-ref', '--stdin'], { cwd: options.cwd, timeoutMs, env, input: `${others.join('\n')}\n` });
  const filtered = !/filtering not recognized/.test(result.stderr);
  // A remote that ignores filters sent the nearby beacons whole: nothing of that is kept for later.
  const release = kind === 'nearby' ? () => scratch.release(filtered) : () => scratch.release(false);
  return { refs, dates, probe: { dir: join(scratch.root, 'objects'), filtered, release } };
}

interface Scratch {
  readonly root: string;
  /** After the run: its objects go (a kept listing keeps its refs), or stay as the next run's haves (`keepObjects`). */
  readonly release: (keepObjects?: boolean) => Promise<void>;
}

/**
 * The scratch repository kept between runs, `<common-dir>/airspace/listing.git`, or null while
 * another run holds it (that run then uses a fresh one). Kept, its refs are the last listing: a
 * fetch writes only the refs that changed, where a fresh scratch wrote every listed ref as a loose
 * file and removed them all afterwards (594 refs: ≈ 0.1 s of ref writes and 0.1–0.3 s of removal
 * per run, measured in bench/beacon-areas.mjs). Its objects are emptied on every run: they are the
 * quarantine, and what was accepted is in the real store, its alternate.
 */
async function openKeptScratch(home: string, commonDir: string, kind: ListingKind): Promise<(Scratch & { readonly discard: () => Promise<void> }) | null> {
  const lock = join(home, `${kind}.lock`);
  let token: string | undefined;
  try {
    token = tryLock(lock, Date.now(), STALE_MS);
  } catch {
    return null;
  }
  if (token === undefined) return null;
  const root = join(home, `${kind}.git`);
  const objects = join(root, 'objects');
  const unlockIt = (): void => unlock(lock, token);
  try {
    // A killed run's quarantine: never the haves of this one. The nearby listing's commits are haves
    // (they were never more than commits), until they make too many packs.
    if (kind === 'listing' || (await packCount(objects)) > PACKS_KEPT) {
      await rm(objects, { recursive: true, force: true });
      await rm(join(root, 'shallow'), { force: true });
    } else await removeLeftovers(objects);
    await prepareScratch(root, commonDir);
  } catch (error) {
    // A kept scratch that cannot be prepared (a file where a directory goes, a half-removed tree)
    // is gone for the next run, which builds a new one: it never stays broken.
    await rm(root, { recursive: true, force: true }).catch(() => undefined);
    unlockIt();
    throw error;
  }
  return {
    root,
    release: async (keepObjects = false) => {
      try {
        if (!keepObjects) await rm(objects, { recursive: true, force: true });
      } finally {
        unlockIt();
      }
    },
    discard: async () => {
      try {
        await rm(root, { recursive: true, force: true });
      } finally {
        unlockIt();
      }
    },
  };
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** A killed fetch's temporary packs and quarantines in a kept object directory (packCount does not see them). */
async function removeLeftovers(objects: string): Promise<void> {
  const pack = join(objects, 'pack');
  const inPack = await readdir(pack).catch(() => [] as string[]);
  const inObjects = await readdir(objects).catch(() => [] as string[]);
  await Promise.all([
    ...inPack.filter((name) => name.startsWith('tmp_')).map((name) => rm(join(pack, name), { force: true })),
    ...inObjects.filter((name) => name.startsWith('incoming-')).map((name) => rm(join(objects, name), { recursive: true, force: true })),
  ]);
}

async function packCount(objects: string): Promise<number> {
  const names = await readdir(join(objects, 'pack')).catch(() => []);
  return names.filter((name) => name.endsWith('.pack')).length;
}

/** A scratch repository of this run alone, `<common-dir>/airspace/incoming-*`, removed after it. */
async function openFreshScratch(home: string, commonDir: string): Promise<Scratch> {
  const root = await mkdtemp(join(home, 'incoming-'));
  const release = (): Promise<void> => rm(root, { recursive: true, force: true });
  try {
    await prepareScratch(root, commonDir);
  } catch (error) {
    await release();
    throw error;
  }
  return { root, release };
}

async function prepareScratch(root: string, commonDir: string): Promise<void> {
  const objects = join(commonDir, 'objects');
  // The object format is the repository's own extension (git reads it from this file, includes aside).
  const sha256 = /^\s*objectformat\s*=\s*sha256\s*$/im.test(await readFile(join(commonDir, 'config'), 'utf8').catch(() => ''));
  await mkdir(join(root, 'objects', 'info'), { recursive: true });
  await mkdir(join(root, 'objects', 'pack'), { recursive: true });
  await mkdir(join(root, 'refs'), { recursive: true });
  await writeFile(join(root, 'HEAD'), 'ref: refs/heads/main\n');
  await writeFile(join(root, 'objects', 'info', 'alternates'), `${objects}\n`);
  // The user's config first, then ours: a later value wins (bare, no hooks of its own).
  const format = sha256 ? '[extensions]\n\tobjectformat = sha256\n' : '';
  const version = sha256 ? 1 : 0;
  await writeFile(
    join(root, 'config'),
    `[include]\n\tpath = ${configPath(commonDir)}\n[core]\n\trepositoryformatversion = ${version}\n\tbare = true\n${format}`,
  );
}

/**
 * The nearest directory holding `.git`, from `cwd` up (fs only, no process): git runs a fetch from
 * the worktree's top, and a relative `remote.<name>.url` (`../remote.git`) is relative to it. A
 * scratch repository named by GIT_DIR does not move there by itself.
 */
async function worktreeTop(cwd: string): Promise<string> {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    if (
      await stat(join(dir, '.git')).then(
        () => true,
        () => false,
      )
    )
      return dir;
    if (dirname(dir) === dir) return cwd;
  }
}

/** The user's repository config, escaped for a config value (a path with `"` or `\\`). */
function configPath(commonDir: string): string {
  return `"${join(commonDir, 'config').replace(/[\\"]/g, (ch) => `\\${ch}`)}"`;
}

/** Steps 2–4 for what the listing holds: fetch what is new, size it, keep what fits, mirror the refs. */
async function fetchListed(
  options: BeaconFetchOptions,
  listing: Listing,
  localLines: readonly string[],
  refusedBefore: ReadonlySet<string>,
  left: () => number,
  /** Ids the store holds already (another part of this fetch brought them in). */
  alsoHeld: Iterable<string> = [],
): Promise<{ refused: number; refusedAll: ReadonlySet<string> }> {
  const { cwd, commonDir } = options;
  const home = join(commonDir, 'airspace');
  const remoteRefs = listing.refs;
  const localRefs = new Map<string, string>();
  for (const line of localLines) {
    const space = line.indexOf(' ');
    localRefs.set(line.slice(space + 1), line.slice(0, space));
  }
  const held = new Set([...localRefs.values(), ...alsoHeld]);
  const unheld = [...new Set([...remoteRefs.values()].filter((sha) => !held.has(sha) && !refusedBefore.has(sha)))];
  const objects = join(commonDir, 'objects');
  // A selective listing's objects are here already (its probe): when it brought a pack, the three
  // questions below are asked of it side by side, not one after the other. A probe that brought
  // nothing (only our own beacon, just published, is new) needs the presence alone, as before.
  const early =
    listing.probe && unheld.length > 0 && (await packCount(listing.probe.dir)) > 0 ? await inspectProbe(cwd, listing.probe, objects, unheld, left) : undefined;
  // Our own beacon, just published, is in the store already: nothing to fetch, only a ref to write.
  const present = early?.present ?? (unheld.length > 0 ? await presentObjects(cwd, unheld, left()) : new Set<string>());
  const wanted = unheld.filter((sha) => !present.has(sha));

  const refusedNow = new Set<string>();
  if (wanted.length > 0) {
    const probe = listing.probe ?? (await quarantineFetch(options, wanted, true, left()));
    let final: Quarantine = probe;
    try {
      const sizes = early?.sizes ?? (await beaconSizes(cwd, probe.dir, objects, wanted, left()));
      for (const sha of wanted) {
        const size = sizes.get(sha);
        if (size === undefined || size > options.maxBytes) refusedNow.add(sha);
      }
      const accepted = wanted.filter((sha) => !refusedNow.has(sha));
      const complete = probe.filtered && refusedNow.size === 0 && (early ? early.complete : await packComplete(cwd, probe.dir, objects, accepted, left()));
      if (accepted.length > 0 && ((probe.filtered && !complete) || refusedNow.size > 0)) {
        await rm(probe.dir, { recursive: true, force: true });
        final = await quarantineFetch(options, accepted, false, left());
      }
      if (accepted.length > 0) await migrate(final.dir, objects);
    } finally {
      await rm(probe.dir, { recursive: true, force: true });
      if (final !== probe) await rm(final.dir, { recursive: true, force: true });
    }
  }
  if (refusedNow.size > 0) await rememberRefused(home, refusedBefore, refusedNow);

  const refused = new Set([...refusedBefore, ...refusedNow]);
  const commands: string[] = [];
  let refusedRefs = 0;
  for (const [ref, sha] of remoteRefs) {
    if (refused.has(sha)) {
      refusedRefs++;
      continue;
    }
    if (localRefs.get(ref) !== sha) commands.push(`update ${ref} ${sha}`);
  }
  // What the remote no longer has (or we refused, or a selective read did not list) goes: `--prune` for these refs.
  for (const [ref, sha] of localRefs) {
    const now = remoteRefs.get(ref);
    if (now === undefined || refused.has(now)) commands.push(`delete ${ref} ${sha}`);
  }
  if (commands.length > 0) await runGit(['update-ref', '--stdin'], { cwd, input: `${commands.join('\n')}\n`, timeoutMs: left() });
  return { refused: refusedRefs, refusedAll: refused };
}

interface Quarantine {
  readonly dir: string;
  /** The remote honoured the filter: the pack may lack the work commits' big blobs. */
  readonly filtered: boolean;
}

async function quarantineFetch(options: BeaconFetchOptions, shas: readonly string[], filter: boolean, timeoutMs: number): Promise<Quarantine> {
  const home = join(options.commonDir, 'airspace');
  await mkdir(home, { recursive: true });
  const dir = await mkdtemp(join(home, 'incoming-'));
  await mkdir(join(dir, 'pack'), { recursive: true });
  await mkdir(join(dir, 'info'), { recursive: true });
  const promisor = `remote.${options.remote}`;
  const args = [
    // Always a pack (never loose objects): one file to move.
    '-c',
    'fetch.unpackLimit=1',
    ...(filter ? ['-c', `${promisor}.promisor=true`, '-c', `${promisor}.partialclonefilter=blob:limit=${options.maxBytes}`] : []),
    'fetch',
    '--no-tags',
    '--no-write-fetch-head',
    '--no-auto-maintenance',
    '--no-recurse-submodules',
    ...(filter ? [`--filter=blob:limit=${options.maxBytes}`] : []),
    '--stdin',
    '--end-of-options',
    options.remote,
  ];
  try {
    const result = await runGit(args, {
      cwd: options.cwd,
      input: `${shas.join('\n')}\n`,
      timeoutMs,
      env: { GIT_OBJECT_DIRECTORY: dir, GIT_ALTERNATE_OBJECT_DIRECTORIES: join(options.commonDir, 'objects') },
    });
    return { dir, filtered: filter && !/filtering not recognized/.test(result.stderr) };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * The size of each beacon's `beacon.json` (a commit's) or of the blob itself, as the quarantine
 * holds them; absent when the ref is no beacon. A beacon commit's tree holds `beacon.json` alone
 * (one entry, under ONE_ENTRY_TREE bytes): a tree with more is refused before its objects are fetched.
 */
async function beaconSizes(cwd: string, dir: string, objects: string, shas: readonly string[], timeoutMs: number): Promise<Map<string, number>> {
  // `%(rest)` echoes the asked id back: each id's own type, its tree, its `beacon.json`.
  const input = shas.flatMap((sha) => [`${sha} ${sha}`, `${sha}^{tree} ${sha}`, `${sha}:beacon.json ${sha}`]).join('\n');
  const result = await runGit(['cat-file', '--batch-check=%(objecttype) %(objectsize) %(rest)'], {
    cwd,
    input: `${input}\n`,
    timeoutMs,
    env: { GIT_OBJECT_DIRECTORY: dir, GIT_ALTERNATE_OBJECT_DIRECTORIES: objects },
  });
  const answers = new Map<string, { type: string; size: number }[]>();
  for (const line of lines(result.stdout)) {
    const [type = '', size = '', sha = ''] = line.split(' ');
    // A missing object is "<name> missing", without the echo: it leaves a gap, read below.
    if (!OID.test(sha)) continue;
    answers.set(sha, [...(answers.get(sha) ?? []), { type, size: Number(size) }]);
  }
  const sizes = new Map<string, number>();
  for (const sha of shas) {
    const [own, tree, json] = answers.get(sha) ?? [];
    if (own?.type === 'blob') sizes.set(sha, own.size);
    else if (own?.type === 'commit' && tree?.type === 'tree' && tree.size <= ONE_ENTRY_TREE && json?.type === 'blob') sizes.set(sha, json.size);
  }
  return sizes;
}

/**
 * Whether a filtered probe left nothing out: the filter only omits blobs above the limit, so when
 * no object reachable from the accepted ids (and not from our refs) is missing, the probe's pack is
 * the whole answer and the second fetch (a round trip to the remote) is not needed. A beacon whose
 * work holds no big blob — nearly all of them — then costs one fetch, not two.
 */
async function packComplete(cwd: string, dir: string, objects: string, shas: readonly string[], timeoutMs: number): Promise<boolean> {
  const result = await runGit(['rev-list', '--objects', '--missing=print', '--stdin', '--not', '--all'], {
    cwd,
    input: `${shas.join('\n')}\n`,
    timeoutMs,
    okCodes: [128],
    env: { GIT_OBJECT_DIRECTORY: dir, GIT_ALTERNATE_OBJECT_DIRECTORIES: objects },
  });
  return result.code === 0 && !lines(result.stdout).some((line) => line.startsWith('?'));
}

/**
 * A selective listing's probe, asked at once about every id it listed that no ref of ours holds: which
 * of them the store held already, the size of each one's `beacon.json`, and whether the filtered pack
 * left out any object they reach. One after the other these were three git processes in sequence on a
 * cold run's critical path (docs/decisions/beacon-areas.md, "The busiest pusher, cold"). Asked of more ids
 * than fetchListed keeps (the present ones, the refused ones), each answer still holds for the fewer:
 * sizes are per id, and a pack that leaves out nothing any of them reaches leaves out nothing the
 * accepted ones reach. A missing object reachable only from an id refused or held already makes the
 * answer "incomplete", which costs the unfiltered fetch, never a ref to a missing object.
 */
async function inspectProbe(
  cwd: string,
  probe: Quarantine,
  objects: string,
  shas: readonly string[],
  left: () => number,
): Promise<{ present: Set<string>; sizes: Map<string, number>; complete: boolean }> {
  const [present, sizes, complete] = await Promise.allSettled([
    presentObjects(cwd, shas, left()),
    beaconSizes(cwd, probe.dir, objects, shas, left()),
    probe.filtered ? packComplete(cwd, probe.dir, objects, shas, left()) : Promise.resolve(true),
  ]);
  // Every process has ended before the caller removes the probe they read.
  if (present.status === 'rejected') throw present.reason;
  if (sizes.status === 'rejected') throw sizes.reason;
  if (complete.status === 'rejected') throw complete.reason;
  return { present: present.value, sizes: sizes.value, complete: complete.value };
}

/** Which of these ids the store already holds. */
async function presentObjects(cwd: string, shas: readonly string[], timeoutMs: number): Promise<Set<string>> {
  const result = await runGit(['cat-file', '--batch-check=%(objectname)'], { cwd, input: `${shas.join('\n')}\n`, timeoutMs });
  return new Set(lines(result.stdout).filter((line) => OID.test(line)));
}

/** Packs first, each `.idx` last (an index makes its pack visible); loose objects if any. */
async function migrate(from: string, objects: string): Promise<void> {
  const packs = (await readdir(join(from, 'pack'))).filter((name) => name.startsWith('pack-'));
  const order = (name: string): number => (name.endsWith('.idx') ? 1 : 0);
  for (const name of packs.sort((a, b) => order(a) - order(b))) await rename(join(from, 'pack', name), join(objects, 'pack', name));
  for (const fan of await readdir(from)) {
    if (!/^[0-9a-f]{2}$/.test(fan)) continue;
    await mkdir(join(objects, fan), { recursive: true });
    for (const name of await readdir(join(from, fan))) if (!name.startsWith('tmp_')) await rename(join(from, fan, name), join(objects, fan, name));
  }
}

/** A killed hook's quarantine (SIGKILL runs no `finally`) goes on a later run. */
async function sweepStaleQuarantines(home: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(home);
  } catch {
    return;
  }
  const now = Date.now();
  for (const name of names) {
    if (!name.startsWith('incoming-')) continue;
    const path = join(home, name);
    try {
      if (now - (await stat(path)).mtimeMs > STALE_MS) await rm(path, { recursive: true, force: true });
    } catch {
      // Gone already: another run swept it.
    }
  }
}

const refusedFile = (home: string): string => join(home, 'refused-beacons.json');

async function readRefused(home: string): Promise<Set<string>> {
  try {
    const data: unknown = JSON.parse(await readFile(refusedFile(home), 'utf8'));
    return new Set(Array.isArray(data) ? data.filter((x): x is string => typeof x === 'string' && OID.test(x)) : []);
  } catch {
    return new Set();
  }
}

async function rememberRefused(home: string, before: ReadonlySet<string>, now: ReadonlySet<string>): Promise<void> {
  const all = [...before, ...now].slice(-MAX_REMEMBERED);
  await writeFileAtomic(refusedFile(home), `${JSON.stringify(all)}\n`);
}

function lines(buffer: Buffer): string[] {
  return buffer
    .toString('utf8')
    .split('\n')
    .filter((line) => line !== '');
}
