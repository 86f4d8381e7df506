import type { SymbolCollision, SymbolLocation } from '../symbols/symbol-types.js';

/** Sentences of the symbol channel (docs/decisions/symbol-channel.md). */

const at = (location: SymbolLocation): string => (location.line > 0 ? `${location.file}:${location.line}` : location.file);

function what(c: SymbolCollision): string {
  if (c.change === 'removed') return `removed \`${c.symbol}\` (${at(c.declaration)})`;
  if (c.change === 'renamed') return `renamed \`${c.symbol}\` to \`${c.renamedTo ?? '?'}\` (${at(c.declaration)})`;
  return `changed the signature of \`${c.symbol}\` (${[at(c.declaration), ...c.details.slice(0, 2)].join(', ')})`;
}

function how(c: SymbolCollision): string {
  if (c.args === undefined || c.args === null) return 'uses it';
  return `calls it with ${c.args} argument${c.args === 1 ? '' : 's'}`;
}

export const symbolMessages = {
  parserMissing: (reason: string) => `the symbol parser (oxc-parser) could not be loaded: ${reason}`,
  unreadable: (what: string) => `could not read the changed files: ${what}`,
  cut: "not computed: comparing the symbols took more than this channel's share of the budget",
  tooLarge: (files: number, bytes: number) =>
    `${files} changed source files (${(bytes / 1024 / 1024).toFixed(1)} MB in all versions): more than the symbol channel parses inside a hook`,
  /**
   * One collision, told to `viewer` ("your new code" when the viewer wrote the use). Example:
   * ada changed the signature of `createSession` (src/auth/session.ts:3, 1 → 2 required parameters);
   * your new code in src/api/admin.ts:4 calls it with 1 argument
   */
  collision: (c: SymbolCollision, viewer: string | null) => {
    const changer = viewer === c.changedBy ? 'you' : c.changedBy;
    const user = viewer === c.usedBy ? 'your new code' : `${c.usedBy}'s new code`;
    return `${changer} ${what(c)}; ${user} in ${at(c.use)} ${how(c)}`;
  },
  /** A link's evidence line: the first collision, and how many more. */
  evidence: (first: string, more: number) => `${first}${more > 0 ? ` (and ${more} more)` : ''}`,
};
