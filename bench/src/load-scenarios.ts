/**
 * Streaming reader of the merge-scenario dataset. The three files are 1–22 MB and are in the same
 * order (one line per scenario), so they are read in lockstep, one line at a time, and joined by
 * `merge`; a line that is not selected is never parsed.
 */
import { createReadStream, existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { AirspaceError } from '../../src/errors.js';
import { evalMessages } from './eval-messages.js';
import type { DataPrefix, DataRecency, DataScenario, JoinedScenario } from './scenario-types.js';

export interface DatasetPaths {
  readonly scenarios: string;
  readonly prefix: string;
  readonly recency: string;
}

export interface LoadOptions {
  /** Keep only scenario number i (0-based) where `select(i)` is true; default: all. */
  readonly select?: (index: number) => boolean;
  /** Stop after this many lines of the scenario file. */
  readonly maxLines?: number;
}

/** The dataset files of split `split` (`dev`) in `dir`; throws when one is missing. */
export function datasetPaths(dir: string, split = 'dev'): DatasetPaths {
  const paths = {
    scenarios: join(dir, `${split}.jsonl`),
    prefix: join(dir, `${split}.prefix.jsonl`),
    recency: join(dir, `${split}.recency.jsonl`),
  };
  if (!Object.values(paths).every((p) => existsSync(p))) {
    throw new AirspaceError('environment', 'eval-data-missing', evalMessages.dataMissing(dir), { dir });
  }
  return paths;
}

function lines(path: string): AsyncIterator<string> {
  const rl = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
  return rl[Symbol.asyncIterator]();
}

function parse<T>(text: string, file: string, line: number): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new AirspaceError('environment', 'eval-data-bad-line', evalMessages.badLine(file, line), { file, line });
  }
}

/** Yields each selected scenario joined with its earlier moments and final-state recency. */
export async function* readScenarios(paths: DatasetPaths, options: LoadOptions = {}): AsyncGenerator<JoinedScenario> {
  const main = lines(paths.scenarios);
  const prefix = lines(paths.prefix);
  const recency = lines(paths.recency);
  for (let index = 0; ; index += 1) {
    if (options.maxLines !== undefined && index >= options.maxLines) return;
    const [a, p, r] = await Promise.all([main.next(), prefix.next(), recency.next()]);
    if (a.done) return;
    if (options.select && !options.select(index)) continue;
    const scenario = parse<DataScenario>(a.value, paths.scenarios, index + 1);
    const pre = p.done ? null : parse<DataPrefix>(p.value, paths.prefix, index + 1);
    const rec = r.done ? null : parse<DataRecency>(r.value, paths.recency, index + 1);
    for (const other of [pre, rec]) {
      if (other && other.merge !== scenario.merge) {
        throw new AirspaceError('environment', 'eval-data-join', evalMessages.joinMismatch(index + 1, scenario.merge, other.merge));
      }
    }
    yield { scenario, prefix: pre, recency: rec };
  }
}

/** Parses JSONL text already in memory (tests, tiny fixtures). */
export function parseJsonl<T>(text: string, file = '<text>'): T[] {
  return text
    .split('\n')
    .map((line, i) => ({ line, i }))
    .filter(({ line }) => line.trim() !== '')
    .map(({ line, i }) => parse<T>(line, file, i + 1));
}
