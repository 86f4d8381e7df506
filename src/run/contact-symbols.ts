import { symbolChannel } from '../symbols/symbol-channel.js';
import type { PairWorkingSets } from '../traffic/collect-airspace.js';
import { mapLimit } from '../traffic/limit-concurrency.js';
import { targetOf, type LineOfWork } from '../traffic/line-of-work.js';

export interface ContactSymbolsInput {
  readonly cwd: string;
  readonly pairs: readonly PairWorkingSets[];
  /** Lines of work by id (ownship and traffic): the commits the channel reads. */
  readonly lines: ReadonlyMap<string, LineOfWork>;
  /** Whether the channel runs on pair k (src/run/score-pairs.ts prepareScoring: contact or adjacent). */
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
 * parse per pair, so on 1,000 agents it cannot run on all of them. A symbol collision needs one
 * side's changed lines to use what the other side changed: in the same file (a shared path) or
 * through an import of it. So it runs on the pairs the caller selects: those with a shared path,
 * a merge value, or a direct import between the two sides' files in the import graph. Its blind
 * spots — a use through a barrel file, an import the line of work just added — are said in the
 * report (messages/scale.ts); the hooks, which compare the ownship with each peer, still run it
 * on every pair.
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
