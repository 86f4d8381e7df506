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
  readonly tsconfigError: string | undefined;
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
  // Without a TypeScript it supports, dependency-cruiser reads TS files differently (and we warn):
  // the direct path would then not give its edges. Whether it has one is known from the last build
  // (the cache) or from loading it; when the cache says yes, dependency-cruiser (~1.7 s to load)
  // is loaded only for a batch with files the direct path leaves to it — a refresh of a few files
  // with relative imports never loads it.
  // Without a cache and without a tsconfig (whose parse errors only dependency-cruiser reports),
  // the same yes is read from the installed packages instead (probe-typescript.ts): a first build
  // of a few files with relative imports does not load it either.
  let session: CruiseSession | undefined;
  const openSession = async (): Promise<CruiseSession> => (session ??= await openCruiseSession(toplevel, options.tsconfig));
  const probed =
    options.direct !== false && options.typescriptAvailable === undefined && options.tsconfig === undefined && probeTypescript() ? true : undefined;
  const known = options.typescriptAvailable ?? probed;
  const useDirect = options.direct !== false && (known === true || (await openSession()).typescriptAvailable);
  const direct = useDirect ? await openDirectReader(toplevel, options.layoutFiles) : undefined;
  if (!direct) await openSession();
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
    const viaCruiser = read.rest.length > 0 ? await (await openSession()).cruise(read.rest) : new Map<string, CruisedFile>();
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
    tsconfigError: session?.tsconfigError,
  };
}
