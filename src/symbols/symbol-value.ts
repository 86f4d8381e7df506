import { symbolMessages } from '../messages/channels.js';
import type { SymbolCollision } from './symbol-types.js';

/**
 * The channel's value for a pair, from its collisions (docs/decisions/symbol-channel.md):
 * - a removed or renamed declaration used by the other side's new code is a fact — the merged
 *   tree will not build — so r = 1 with evidence (an RA);
 * - a signature change used by the other side is likely, not certain, to break it (a new optional
 *   use of the result, an argument that still fits): r = 0.7, above τ_TA (0.62) and below τ_RA
 *   (0.77), a TA; `symbols.signatureChange: 'block'` makes it evidence too;
 * - nothing used: r = 0.
 */
export type SignaturePolicy = 'warn' | 'block';

const SIGNATURE_RISK = 0.7;

export function symbolValue(collisions: readonly SymbolCollision[], policy: SignaturePolicy = 'warn'): { value: number; evidence?: string } {
  const certain = collisions.filter((c) => c.change !== 'signature' || policy === 'block');
  if (certain.length > 0) return { value: 1, evidence: symbolMessages.evidence(symbolMessages.collision(certain[0]!, null), certain.length - 1) };
  return { value: collisions.length > 0 ? SIGNATURE_RISK : 0 };
}
