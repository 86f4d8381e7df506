import { symbolChannel } from '../symbols/symbol-channel.js';
import type { PairWorkingSets } from '../traffic/collect-airspace.js';
import { mapLimit } from '../traffic/limit-concurrency.js';
import { targetOf, type LineOfWork } from '../traffic/line-of-work.js';

/**
 * Up to this many pairs (25 agents) `scan` runs the symbol channel on every pair, as the hooks do
 * for the ownship: its cost grows with the pairs whose two sides both changed scripts, and a few
 * hundred cost about what one hook with as many peers costs. Beyond, only the listed pairs.
 */
export const SYMBOLS_ON_EVERY_PAIR_UP_TO = 300;

export interface ContactSymbolsInput {
  readonly cwd: string;
  readonly pairs: readonly PairWorkingSets[];
  /** Lines of work by id (ownship and traffic): the commits the channel reads. */
  readonly lines: ReadonlyMap<string, LineOfWork>;
  /** Whether the channel runs on pair k (src/run/score-pairs.ts prepareScoring contact). */
  readonly contact: (k: number) => boolean;
  readonly concurrency: number;
}

export interface ContactSymbols {
  /** The same pairs, in order; those with contact carry their symbol channel result. */
  readonly pairs: PairWorkingSets[];
  /** Pairs whose symbol channel did not run because the caller did not select them. */
  readonly skipped: number;
}

/**
 * `scan` of n agents compares n(n − 1)/2 pairs; the symbol channel costs a `git cat-file` and a
 * parse of every changed file version per pair (measured on bench:perf's repository, 200 agents:
 * 108 pairs with a shared path or a direct import took 12 s of a 28 s profile), so on hundreds of
 * agents it cannot run on every pair, nor on every pair with an import between its files. It runs
 * on the pairs the caller selects — in `scan` beyond SYMBOLS_ON_EVERY_PAIR_UP_TO pairs, the listed
 * pairs (a shared path or a merge value).
 * What that leaves out (a removed export used through an import) is said in the report
 * (messages/scale.ts); the hooks, which compare the ownship with each peer, run it on every pair.
 */
export async function contactSymbols(input: ContactSymbolsInput): Promise<ContactSymbols> {
  const pairs = [...input.pairs];
  const chosen: number[] = [];
  let skipped = 0;
  pairs.forEach((pair, k) => {
    if (pair.symbol || !input.lines.has(pair.a) || !input.lines.has(pair.b)) return;
    if (input.contact(k)) chosen.push(k);
    else skipped++;
  });
  // Pairs by index, so 499,500 pairs without contact cost no promise each.
  await mapLimit(chosen, input.concurrency, async (k) => {
    const pair = pairs[k]!;
    const symbol = await symbolChannel(input.cwd, pair.base, targetOf(input.lines.get(pair.a)!), targetOf(input.lines.get(pair.b)!), {
      ids: { a: pair.a, b: pair.b },
      filesA: pair.workingSetA.files,
      filesB: pair.workingSetB.files,
    });
    pairs[k] = { ...pair, symbol };
  });
  return { pairs, skipped };
}
