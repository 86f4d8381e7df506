/**
 * The data of the symbol channel (docs/decisions/symbol-channel.md): what a file version declares,
 * imports and uses, what one side changed per declaration, and the collisions found. Plain data:
 * the comparison steps take these in and give these back.
 */

export type DeclarationKind = 'function' | 'class' | 'variable' | 'interface' | 'type' | 'enum' | 'namespace' | 'reexport';

export interface ParamShape {
  /** The parameter's name, or the compact text of its pattern. */
  readonly name: string;
  readonly optional: boolean;
  readonly rest: boolean;
  /** Compact (whitespace-free) text of the type annotation; null when unannotated. */
  readonly type: string | null;
}

export interface MemberShape {
  readonly name: string;
  readonly optional: boolean;
  readonly type: string | null;
}

/** What callers and implementers depend on; everything else in a declaration is its body. */
export interface Signature {
  readonly params?: readonly ParamShape[];
  /** Compact text of the annotated return type; null when inferred. */
  readonly returns?: string | null;
  readonly async?: boolean;
  readonly members?: readonly MemberShape[];
  /** A variable's annotation or a type alias's right-hand side (compact). */
  readonly type?: string | null;
}

export interface Declaration {
  /** The name other modules import it by (`default` for the default export); the local name when not exported. */
  readonly name: string;
  readonly local: string;
  readonly exported: boolean;
  readonly kind: DeclarationKind;
  /** 1-based line of the declaration in its file version. */
  readonly line: number;
  readonly signature: Signature;
  /** Compact text of the whole declaration without its name: equal text = unchanged. */
  readonly text: string;
}

/** `export { x as y } from './m'` and `export * from './m'`: how barrels pass a name on. */
export interface ReExport {
  readonly name: string | '*';
  readonly imported: string | '*';
  readonly source: string;
}

export interface ImportBinding {
  readonly local: string;
  readonly source: string;
  /** The export it names; `*` for a namespace import or a whole `require(...)`. */
  readonly imported: string;
  /** A whole `require(...)`: calling the binding itself uses the module's `module.exports`. */
  readonly commonjs?: boolean;
}

export interface ModuleFacts {
  readonly declarations: readonly Declaration[];
  readonly reExports: readonly ReExport[];
  readonly imports: readonly ImportBinding[];
}

/** One reference in a side's changed lines: a binding (and the member read off it, for namespaces). */
export interface UseSite {
  readonly name: string;
  readonly member?: string;
  readonly line: number;
  /** Arguments of the call or `new` when the reference is the callee (null: a spread, unknown). */
  readonly args?: number | null;
}

export type ChangeKind = 'removed' | 'renamed' | 'signature';

export interface DeclarationChange {
  readonly kind: ChangeKind;
  /** The exported name (the local name for a declaration that is not exported). */
  readonly name: string;
  /** The name inside its own file, for uses in the same file. */
  readonly local: string;
  readonly exported: boolean;
  readonly declarationKind: DeclarationKind;
  /** Line of the declaration in the changer's version (the base version when removed). */
  readonly line: number;
  /** What changed, one short clause each (e.g. `1 → 2 required parameters`). */
  readonly details: readonly string[];
  readonly renamedTo?: string;
  /** Required and maximum parameter counts after the change, for checking call sites. */
  readonly requiredAfter?: number;
  readonly maxAfter?: number;
}

export interface SymbolLocation {
  readonly file: string;
  readonly line: number;
}

/** One side changed `symbol`; the other side's changed code uses it. */
export interface SymbolCollision {
  readonly symbol: string;
  readonly change: ChangeKind;
  readonly details: readonly string[];
  readonly renamedTo?: string;
  /** The agent whose change it is, and the one whose new code uses the symbol. */
  readonly changedBy: string;
  readonly usedBy: string;
  readonly declaration: SymbolLocation;
  readonly use: SymbolLocation;
  /** Arguments at the use when it is a call. */
  readonly args?: number | null;
  /** The call's argument count does not fit the new signature. */
  readonly callMismatch?: boolean;
}
