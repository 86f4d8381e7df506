import { channelWeight, type ResolvedOptions } from './resolve-options.js';

/**
 * Overlap and proximity need a shared path to be non-zero (a SharedFileScore exists only for one).
 * Dependency needs graph contact: one side's file inside the other's bounded ball (DependencySearch
 * stops past maxDepth and below couplingCutoff). Breadth and tree give any pair a risk.
 */
const PATH_CHANNELS: ReadonlySet<string> = new Set(['overlap', 'proximity']);
const FREE_CHANNELS: ReadonlySet<string> = new Set(['breadth', 'tree']);

/**
 * Which pairs must be scored and listed, the others being provably clear:
 * - 'path': pairs with a shared path or an external value that is not a plain 0 (merge, symbol:
 *   a value > 0, evidence, unknown). Graph contact alone cannot make an advisory: with the
 *   calibrated weights dependency adds at most ω_dep = 0.05, so R ≤ 1 − 0.65 · 0.95 = 0.38.
 * - 'graph': those, plus pairs with graph contact (a heavier dependency weight).
 * - 'all': every pair (a heavy breadth or tree weight, an unknown channel).
 */
export type ContactRule = 'path' | 'graph' | 'all';

export interface ContactBound {
  readonly rule: ContactRule;
  /** The largest risk a pair the rule leaves out can have; null for 'all'. */
  readonly bound: number | null;
}

/**
 * A pair left out has 0 in every channel its rule needs contact for, so R ≤ 1 − Π(1 − ω_c) over
 * the other enabled channels (each r ≤ 1). It is provably clear when that bound is below τ_TA
 * (not a TA), below τ_TA − escalationMargin (no early escalation, whatever its history) and below
 * τ_RA; it has no evidence (no RA under `blockOn: 'evidence'`). The loosest rule that holds wins.
 */
export function contactBound(options: ResolvedOptions): ContactBound {
  const limit = Math.min(options.tauTA, options.tauTA - options.escalationMargin, options.tauRA);
  let free = 1;
  let dependency = 1;
  for (const name of options.channels) {
    if (PATH_CHANNELS.has(name)) continue;
    if (name === 'dependency') dependency = 1 - channelWeight(options, name);
    else if (FREE_CHANNELS.has(name)) free *= 1 - channelWeight(options, name);
    else return { rule: 'all', bound: null }; // every pair reports this channel unknown: list them all
  }
  if (1 - free * dependency < limit) return { rule: 'path', bound: 1 - free * dependency };
  if (1 - free < limit) return { rule: 'graph', bound: 1 - free };
  return { rule: 'all', bound: null };
}
