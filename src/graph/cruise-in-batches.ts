import { openDirectReader } from './read-imports-directly.js';
import { probeTypescript } from './probe-typescript.js';
import { openCruiseSession, type CruisedFile, type CruiseSession } from './run-cruise.js';
import type { GraphProgressListener } from './types.js';

/**
 * Cruises a list of files in batches, so a time budget can stop between two batches (a
 * dependency-cruiser run is synchronous and cannot be interrupted) and progress can be reported.
 * Small batches also keep dependency-cruiser's per-run bookkeeping, which grows with the square of
 * the batch, cheap.
 */

export interface BatchOptions {
  readonly tsconfig: string | undefined;
  /** Epoch ms after which no new batch starts. */
  readonly deadline?: number;
  readonly onProgress?: GraphProgressListener;
  readonly now: () => number;
  /** Called after each batch with everything cruised so far (a long build saves its progress). */
  readonly onBatch?: (cruised: ReadonlyMap<string, CruisedFile>) => void;
  /**
   * Read files whose imports are all relative directly (read-imports-directly.ts) and give only
   * the rest to dependency-cruiser. Default true; false = dependency-cruiser for every file (the
   * reference the direct path is tested against).
   */
  readonly direct?: boolean;
  /** The repository's package.json / pnpm-workspace.yaml / tsconfig files: package and alias imports are then read directly too. */
  readonly layoutFiles?: readonly string[];
  /** What the last build found (the cache): true lets the direct path start without loading dependency-cruiser. */
  readonly typescriptAvailable?: boolean;
}

export interface BatchResult {
  readonly cruised: Map<string, CruisedFile>;
  /** Files not reached before the deadline. */
  readonly remaining: readonly string[];
  /** undefined when dependency-cruiser was never loaded (nothing to do, or no time). */
  readonly typescriptAvailable: boolean | undefined;
  /** Every file was read with oxc (no TypeScript for dependency-cruiser): the records are complete all the same. */
  readonly readWithoutTypescript?: boolean;
  readonly tsconfigError: string | undefined;
}

/**
 * Is there a TypeScript for dependency-cruiser? The cache's yes is trusted. The cache's no is asked
 * again of the installed packages (probe-typescript.ts, no load): a compiler that appeared since is
 * used from this build on. With no verdict, the installed packages answer when there is no tsconfig
 * (whose parse errors only dependency-cruiser reports); otherwise dependency-cruiser is loaded and asked.
 */
async function typescriptVerdict(options: BatchOptions, openSession: () => Promise<CruiseSession>): Promise<boolean> {
  if (options.typescriptAvailable === true) return true;
  if (options.typescriptAvailable === false) return probeTypescript() !== undefined;
  if (options.tsconfig === undefined && probeTypescript()) return true;
  return (await openSession()).typescriptAvailable;
}

const MAX_BATCH = 400;
const MIN_BATCH = 20;
const FIRST_BATCH_WITH_DEADLINE = 50;

export async function cruiseInBatches(toplevel: string, files: readonly string[], options: BatchOptions): Promise<BatchResult> {
  const cruised = new Map<string, CruisedFile>();
  const { deadline, now } = options;
  if (files.length === 0 || (deadline !== undefined && now() >= deadline)) {
    return { cruised, remaining: files, typescriptAvailable: undefined, tsconfigError: undefined };
  }
  options.onProgress?.({ phase: 'load' });
  // Which TypeScript dependency-cruiser would use decides who reads what. With one (the last
  // build's verdict in the cache, or the installed packages, probe-typescript.ts), files the direct
  // path is not sure about go to dependency-cruiser (~1.7 s to load, so only for a batch with such
  // files: a refresh of a few files with relative imports never loads it). Without one — a clone
  // without node_modules, TypeScript 7 without its JS API — dependency-cruiser would read .ts files
  // as JavaScript and miss their imports; oxc reads them all instead and dependency-cruiser is
  // never loaded. A cached "no TypeScript" is asked again on every build: a compiler that has
  // appeared since is used from then on.
  let session: CruiseSession | undefined;
  const openSession = async (): Promise<CruiseSession> => (session ??= await openCruiseSession(toplevel, options.tsconfig));
  const known = options.direct === false ? undefined : await typescriptVerdict(options, openSession);
  let complete = options.direct !== false && known !== true;
  let direct = options.direct === false ? undefined : await openDirectReader(toplevel, { layoutFiles: options.layoutFiles, complete });
  // No oxc binding on this platform: dependency-cruiser reads everything, with or without TypeScript.
  if (!direct) complete = false;
  if (!direct) await openSession();
  // The cache or the probe said yes, dependency-cruiser says no: read what is left with oxc.
  const leftovers = async (rest: readonly string[]): Promise<Map<string, CruisedFile>> => {
    if (rest.length === 0) return new Map();
    const opened = await openSession();
    if (!direct || opened.typescriptAvailable || options.direct === false) return opened.cruise(rest);
    if (!complete) {
      complete = true;
      direct = (await openDirectReader(toplevel, { layoutFiles: options.layoutFiles, complete })) ?? direct;
    }
    return direct.read(rest).records;
  };
  let next = 0;
  let msPerFile: number | undefined;
  while (next < files.length) {
    let size = MAX_BATCH;
    if (deadline !== undefined) {
      const left = deadline - now();
      if (left <= 0) break;
      if (msPerFile === undefined) size = FIRST_BATCH_WITH_DEADLINE;
      else {
        size = Math.min(MAX_BATCH, Math.floor((left * 0.9) / msPerFile));
        if (size < MIN_BATCH && size < files.length - next) break;
        size = Math.max(size, 1);
      }
    }
    const batch = files.slice(next, next + size);
    options.onProgress?.({ phase: 'cruise', done: next, total: files.length });
    const started = now();
    const read = direct?.read(batch) ?? { records: new Map<string, CruisedFile>(), rest: batch };
    const viaCruiser = await leftovers(read.rest);
    for (const file of batch) {
      const record = read.records.get(file) ?? viaCruiser.get(file);
      if (record) cruised.set(file, record);
    }
    const perFile = (now() - started) / batch.length;
    msPerFile = msPerFile === undefined ? perFile : Math.max(perFile, (msPerFile + perFile) / 2);
    next += batch.length;
    options.onBatch?.(cruised);
  }
  options.onProgress?.({ phase: 'cruise', done: next, total: files.length });
  return {
    cruised,
    remaining: files.slice(next),
    typescriptAvailable: session?.typescriptAvailable ?? known,
    readWithoutTypescript: complete,
    tsconfigError: session?.tsconfigError,
  };
}
