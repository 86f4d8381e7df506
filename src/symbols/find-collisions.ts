import type { DeclarationChange, SymbolCollision, UseSite } from './symbol-types.js';

/**
 * The collisions of one direction: declarations the changer removed, renamed or re-signed, met
 * by the uses in the other side's changed lines that resolve to them. Pure.
 */

export interface ResolvedUse {
  /** The using file (the user's path). */
  readonly file: string;
  readonly use: UseSite;
  /** The defining file and the name it exports (or its local name when `sameFile`). */
  readonly target: { readonly file: string; readonly name: string; readonly sameFile: boolean };
}

export interface ChangedFile {
  /** The changer's path of the file (where its declarations now are). */
  readonly path: string;
  readonly changes: readonly DeclarationChange[];
}

export function findCollisions(changer: string, user: string, changed: ReadonlyMap<string, ChangedFile>, uses: readonly ResolvedUse[]): SymbolCollision[] {
  const found = new Map<string, SymbolCollision>();
  for (const { file, use, target } of uses) {
    const entry = changed.get(target.file);
    if (!entry) continue;
    const change = entry.changes.find((c) => (target.sameFile ? c.local !== '' && c.local === target.name : c.exported && c.name === target.name));
    if (!change) continue;
    const key = `${entry.path}\0${change.name}\0${file}`;
    if (found.has(key)) continue;
    const mismatch =
      change.kind === 'signature' &&
      use.args != null &&
      change.requiredAfter !== undefined &&
      change.maxAfter !== undefined &&
      (use.args < change.requiredAfter || use.args > change.maxAfter);
    found.set(key, {
      symbol: target.sameFile ? change.local : change.name,
      change: change.kind,
      details: change.details,
      ...(change.renamedTo ? { renamedTo: change.renamedTo } : {}),
      changedBy: changer,
      usedBy: user,
      declaration: { file: entry.path, line: change.line },
      use: { file, line: use.line },
      ...(use.args !== undefined ? { args: use.args } : {}),
      ...(mismatch ? { callMismatch: true } : {}),
    });
  }
  return [...found.values()];
}
