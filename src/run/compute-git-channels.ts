import { mergeChannels } from '../channels/merge-channel.js';
import { proveMergeBases } from '../channels/proven-merge-base.js';
import { symbolChannels, symbolShare } from '../channels/symbol-channels.js';
import type { ChannelledPair, GitChannelContext } from '../channels/types.js';
import { scaleMessages } from '../messages/channels.js';
import type { RunBudget } from './run-budget.js';
import type { PreparedScoring } from './score-pairs.js';

/**
 * Up to this many pairs (25 agents) `scan` runs the symbol channel on every pair, as the hooks do
 * for the ownship: its cost grows with the pairs whose two sides both changed scripts, and a few
 * hundred cost about what one hook with as many peers costs. Beyond, only the pairs with contact:
 * `scan` of n agents compares n(n − 1)/2 pairs, and the channel costs a `git cat-file` and a parse
 * of every changed file version per pair (measured on bench:perf's repository, 200 agents: 108
 * pairs with a shared path or a direct import took 12 s of a 28 s profile). What that leaves out
 * (a removed export used through an import) is said in the report (messages/channels.ts).
 */
export const SYMBOLS_ON_EVERY_PAIR_UP_TO = 300;

/**
 * Pairs of one (declared base, own state) from which their merge base is proven by one `rev-list`
 * rather than asked by each pair: below it, a pair's own `merge-base` costs no more.
 */
const PROVE_BASES_FROM = 4;

/** Stage 3 of a run (src/run/run-airspace.ts): the channels git computes on each pair's two states. */
export interface GitChannelsInput {
  readonly pairs: readonly ChannelledPair[];
  /** Every pair of the scan, `pairs` and those never built (src/run/pairs-to-score.ts): what the symbol threshold counts. */
  readonly pairsInScan?: number;
  readonly cwd: string;
  /** The repository's common git dir: where batched merges keep their scratch objects (absent: no batch). */
  readonly commonDir?: string;
  readonly channels: readonly string[];
  readonly ignore: (path: string) => boolean;
  readonly budget: RunBudget;
  /** `scan`: only pairs with contact are listed, and past SYMBOLS_ON_EVERY_PAIR_UP_TO only they get the symbol channel. */
  readonly contactOnly: boolean;
  /** The engine's scorer for these pairs: which have contact depends on the merge channel's values. */
  readonly prepare: (pairs: readonly ChannelledPair[]) => PreparedScoring;
}

export interface GitChannels {
  /** The same pairs, in order, with their merge and symbol channels. */
  readonly pairs: readonly ChannelledPair[];
  readonly prepared: PreparedScoring;
  /** One line when pairs were left without the symbol channel. */
  readonly skipped: readonly string[];
}

export async function computeGitChannels(input: GitChannelsInput): Promise<GitChannels> {
  return input.budget.stage('channels', async () => {
    const base = { cwd: input.cwd, ignore: input.ignore, concurrency: 4 };
    // Pairs sharing a declared base (hundreds of beacons on the trunk's tip): their merge base proven
    // once per base instead of asked per pair, for both channels (src/channels/proven-merge-base.ts).
    const gitChannels = input.channels.includes('merge') || input.channels.includes('symbol');
    const proven = gitChannels
      ? await proveMergeBases(input.cwd, input.pairs, { minPairs: PROVE_BASES_FROM, concurrency: base.concurrency })
      : new Map<number, string>();
    const context = { ...base, proven, ...(input.commonDir !== undefined ? { commonDir: input.commonDir } : {}) };
    const symbols = input.channels.includes('symbol');
    if (symbols && !input.contactOnly) return bothAtOnce(input, context);
    const merged = input.channels.includes('merge') ? await mergeChannels(input.pairs, context) : [...input.pairs];
    const prepared = input.prepare(merged);
    if (!symbols) return { pairs: merged, prepared, skipped: [] };
    // When pairs without contact cannot be proven clear, they are all listed: check them all. A
    // scan of a few dozen agents checks every pair too: a symbol collision is between files that
    // share no path, which is exactly what the contact rule cannot see.
    const every = !input.contactOnly || prepared.rule === 'all' || (input.pairsInScan ?? merged.length) <= SYMBOLS_ON_EVERY_PAIR_UP_TO;
    const checked = await symbolChannels(merged, every ? () => true : (k) => prepared.contact(k), {
      ...context,
      signal: symbolShare(input.budget),
    });
    // The pairs never built (their paths do not meet) are left out of the symbol channel too.
    const skipped = checked.skipped + (every ? 0 : (input.pairsInScan ?? merged.length) - merged.length);
    return { pairs: checked.pairs, prepared, skipped: skippedNote(skipped) };
  });
}

/**
 * A hook's run (not `scan`): every pair gets the symbol channel whatever the merge channel says, so
 * the two run side by side — the batched merge's `merge-tree` (a git process, ≈ 0.25 s for the
 * busiest pusher's 500 beacon pairs) while Node works out the symbols — and the pairs are joined
 * after. Neither channel reads what the other writes: the merge channel sets `merge`, the symbol
 * channel `symbol`, both from the pair's states (test/integration/git-channels-overlap.test.ts).
 */
async function bothAtOnce(input: GitChannelsInput, context: GitChannelContext): Promise<GitChannels> {
  const [merging, checking] = await Promise.allSettled([
    input.channels.includes('merge') ? mergeChannels(input.pairs, context) : Promise.resolve([...input.pairs]),
    symbolChannels(input.pairs, () => true, { ...context, signal: symbolShare(input.budget) }),
  ]);
  if (merging.status === 'rejected') throw merging.reason;
  if (checking.status === 'rejected') throw checking.reason;
  const merged = merging.value;
  const prepared = input.prepare(merged);
  const pairs = merged.map((pair, k) => {
    const symbol = checking.value.pairs[k]?.symbol;
    return symbol === undefined ? pair : { ...pair, symbol };
  });
  return { pairs, prepared, skipped: skippedNote(checking.value.skipped) };
}

/** The one line for pairs left without the symbol channel, when there are any. */
const skippedNote = (skipped: number): string[] => (skipped > 0 ? [scaleMessages.symbolsSkipped(skipped)] : []);
