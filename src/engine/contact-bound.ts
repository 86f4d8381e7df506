import { channelWeight, type ResolvedOptions } from './resolve-options.js';

/**
 * The channels that need contact to be non-zero: overlap and proximity need a shared path
 * (SharedFileScore exists only for one), dependency needs one side's file inside the other's
 * bounded graph ball (DependencySearch stops past maxDepth and below couplingCutoff). The other
 * built-in channels (breadth, tree) give any pair a risk, contact or not.
 */
const CONTACT_CHANNELS: ReadonlySet<string> = new Set(['overlap', 'proximity', 'dependency']);

/** Built-in channels whose value does not need contact (external channels are per pair, not here). */
const FREE_CHANNELS: ReadonlySet<string> = new Set(['breadth', 'tree']);

/**
 * The largest risk a pair WITHOUT contact can have: no shared path, no graph contact, no external
 * value (merge, symbol: a value > 0, evidence or "unknown" make a pair a contact). Its contact
 * channels are 0 by construction, so R ≤ 1 − Π(1 − ω_c) over the enabled free channels (each r ≤ 1).
 * Null when some enabled channel is neither (an unknown name: every pair reports it as unknown, so
 * every pair must be listed).
 */
export function contactFreeBound(options: ResolvedOptions): number | null {
  let survive = 1;
  for (const name of options.channels) {
    if (CONTACT_CHANNELS.has(name)) continue;
    if (!FREE_CHANNELS.has(name)) return null;
    survive *= 1 - channelWeight(options, name);
  }
  return 1 - survive;
}

/**
 * Whether every pair without contact is provably clear, so it can be counted instead of scored:
 * its risk stays below τ_TA (not a TA), below τ_TA − escalationMargin (no early escalation,
 * whatever its history), and it has no evidence (no RA under `blockOn: 'evidence'`; under
 * `blockOn: 'risk'` an RA needs R ≥ τ_RA ≥ τ_TA). With the calibrated defaults the bound is the
 * breadth weight 0.35 (tree has ω 0) against τ_TA − margin = 0.52.
 */
export function contactFreeIsClear(options: ResolvedOptions): boolean {
  const bound = contactFreeBound(options);
  if (bound === null) return false;
  return bound < Math.min(options.tauTA, options.tauTA - options.escalationMargin, options.tauRA);
}
