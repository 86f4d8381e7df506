import { diffKey, diffWorkingSet, diffWorkingSets } from '../git/diff-working-set.js';
import { currentRunSignal, withRunSignal } from '../git/run-scope.js';
import { isAirspaceError } from '../errors.js';
import { listTreeFiles } from '../graph/list-tree-files.js';
import { symbolMessages } from '../messages/channels.js';
import { openImportResolver, type ImportResolver } from '../source/resolve-import-specifier.js';
import { loadResolverLibraries } from '../source/resolver-libraries.js';
import { readWorkspaceLayout } from '../source/workspace-layout.js';
import type { WorkingSetFile } from '../traffic/working-set.js';
import { addedLines } from './added-lines.js';
import { diffModules } from './diff-declarations.js';
import { findCollisions, type ChangedFile, type ResolvedUse } from './find-collisions.js';
import { isScriptPath, loadParser, type ParseSource } from './load-parser.js';
import { blobKey, existingPaths, readBlobs, type BlobQuery } from './read-blobs.js';
import { readModuleFacts } from './read-module-facts.js';
import { readUses } from './read-uses.js';
import { importProbes, resolveImport, type ResolveContext } from './resolve-import.js';
import type { ModuleFacts, SymbolCollision, UseSite } from './symbol-types.js';
import { symbolValue, type SignaturePolicy } from './symbol-value.js';

/**
 * The symbol channel of one pair: what each side changed per declaration in its changed files,
 * and whether the other side's changed lines use it. Works on any two commits with their common
 * base — snapshot commits of uncommitted work, branch tips, a beacon commit's parent — and reads
 * only the changed files (plus a barrel file when an import passes through one).
 */

export interface SymbolChannelOptions {
  /** Agent ids of the two sides (for the sentences); default 'a' and 'b'. */
  readonly ids?: { readonly a: string; readonly b: string };
  /** The sides' working sets against `base`, when the caller has them (saves two diffs). */
  readonly filesA?: readonly WorkingSetFile[];
  readonly filesB?: readonly WorkingSetFile[];
  readonly ignore?: (path: string) => boolean;
  readonly signal?: AbortSignal;
  readonly signatureChange?: SignaturePolicy;
  /** Source bytes (all versions read) above which the pair is not parsed; default MAX_PAIR_BYTES. */
  readonly maxBytes?: number;
  /**
   * Contents already read by `readBlobs` for at least this pair's `pairBlobQueries`: a caller
   * comparing many pairs reads them all in one git process instead of one per pair.
   */
  readonly blobs?: ReadonlyMap<string, string>;
  /**
   * Parses shared by the pairs of one run (`newParseMemo`): the ownship's files are the same in
   * every pair of a hook, and were parsed once per peer. Keys are `commit:path`, so sharing is exact.
   */
  readonly parsed?: ParseMemo;
  /**
   * Work out both sides' changed declarations even when the side read first uses no name in its
   * new lines, and keep every use (see `computeChannel`, `newCodeUses`): the path before that skip, kept so
   * test/integration/symbol-parse-skip.test.ts can prove the two give the same result on the same states.
   */
  readonly parseBothSides?: boolean;
}

export interface ParseMemo {
  readonly programs: Map<string, ReturnType<ParseSource>>;
  readonly facts: Map<string, ModuleFacts | null>;
  /**
   * What a side did since a base and what its new lines use, by `commit:base:files` (sideKey): the
   * ownship's are the same in each of 500 beacon pairs, and were worked out again in each.
   */
  readonly sides: Map<string, SideWork>;
}

export function newParseMemo(): ParseMemo {
  return { programs: new Map(), facts: new Map(), sides: new Map() };
}

const MAX_PAIR_BYTES = 4 * 1024 * 1024;

export interface SymbolChannelResult {
  /** r in [0, 1]; null when it could not be computed (`reason` says why). */
  readonly value: number | null;
  readonly collisions: readonly SymbolCollision[];
  readonly evidence?: string;
  readonly reason?: string;
}

interface Side {
  readonly id: string;
  readonly commit: string;
  readonly files: readonly WorkingSetFile[];
}

export async function symbolChannel(
  cwd: string,
  base: string,
  commitA: string,
  commitB: string,
  given: SymbolChannelOptions = {},
): Promise<SymbolChannelResult> {
  // The run's signal unless the caller passed one; as the ambient signal it also kills this
  // channel's git processes (src/git/run-scope.ts), and the loops below check it between steps.
  const signal = given.signal ?? currentRunSignal();
  const options: SymbolChannelOptions = signal ? { ...given, signal } : given;
  return signal ? withRunSignal(signal, () => computeChannel(cwd, base, commitA, commitB, options)) : computeChannel(cwd, base, commitA, commitB, options);
}

async function computeChannel(cwd: string, base: string, commitA: string, commitB: string, options: SymbolChannelOptions): Promise<SymbolChannelResult> {
  options.signal?.throwIfAborted();
  try {
    const [filesA, filesB] = await sideFiles(cwd, base, commitA, commitB, options);
    const a: Side = { id: options.ids?.a ?? 'a', commit: commitA, files: scripts(filesA) };
    const b: Side = { id: options.ids?.b ?? 'b', commit: commitB, files: scripts(filesB) };
    if (a.files.length === 0 || b.files.length === 0) return { value: 0, collisions: [] };
    const parse = await loadParser();
    if (typeof parse === 'string') return { value: null, collisions: [], reason: parse };
    options.signal?.throwIfAborted();

    const queries = [...versions(base, a), ...versions(base, b)];
    const blobs = options.blobs ? pick(options.blobs, queries) : await readBlobs(cwd, queries);
    options.signal?.throwIfAborted();
    // Parsing costs ~1 s per MB on a busy small machine: a pair of long-lived branches with
    // megabytes of changed source is reported unknown rather than eating the hook's budget.
    const bytes = [...blobs.values()].reduce((sum, text) => sum + text.length, 0);
    if (bytes > (options.maxBytes ?? MAX_PAIR_BYTES))
      return { value: null, collisions: [], reason: symbolMessages.tooLarge(a.files.length + b.files.length, bytes) };
    const memo = options.parsed ?? newParseMemo();
    const reader = factsReader(parse, blobs, memo);
    // The side whose versions the run has parsed already goes first (the ownship's, shared by every
    // pair of a hook). What the other side changed matters only through a use in the first side's
    // new lines: with none, the other side's declarations are not worked out, and its versions — a
    // beacon's, parsed for this pair alone, ~2,000 of them for the busiest pusher — are parsed only
    // if the first side changed a declaration its new lines could use; with some, only the files
    // those uses can meet (changesMet).
    const [first, second] = !isParsed(memo, base, a) && isParsed(memo, base, b) ? [b, a] : [a, b];
    const eager = options.parseBothSides === true;
    const usesIn = (side: Side): SideUse[] => newCodeUses(base, side, blobs, reader, !eager);
    let firstWork = eager ? undefined : memo.sides.get(sideKey(base, first));
    if (!firstWork) {
      firstWork = { changed: changedDeclarations(base, first, reader), uses: usesIn(first) };
      if (!eager) memo.sides.set(sideKey(base, first), firstWork);
    }
    const firstUsesNames = eager || firstWork.uses.some((file) => file.uses.length > 0);
    const changedSecond = !firstUsesNames
      ? new Map<string, ChangedFile>()
      : eager
        ? changedDeclarations(base, second, reader)
        : changesMet(base, second, firstWork.uses, reader);
    const [changedA, changedB] = first === a ? [firstWork.changed, changedSecond] : [changedSecond, firstWork.changed];
    const usesOf = (side: Side): readonly SideUse[] => (side === first ? firstWork.uses : usesIn(side));
    const unresolved = new Set<string>();
    const collisions = [
      ...(changedA.size > 0 ? findCollisions(a.id, b.id, changedA, await resolvedUses(cwd, b, usesOf(b), changedA, parse, options, unresolved)) : []),
      ...(changedB.size > 0 ? findCollisions(b.id, a.id, changedB, await resolvedUses(cwd, a, usesOf(a), changedB, parse, options, unresolved)) : []),
    ];
    const value = symbolValue(collisions, options.signatureChange);
    // A changed name imported through something that looks internal but resolves nowhere: the
    // use may well be of the changed declaration, so "nothing used" would be a guess.
    if (value.value === 0 && unresolved.size > 0) return { value: null, collisions, reason: symbolMessages.unresolvedImports([...unresolved]) };
    return { ...value, collisions };
  } catch (error) {
    if (!isAirspaceError(error) || options.signal?.aborted) throw error;
    return { value: null, collisions: [], reason: symbolMessages.unreadable(error.message) };
  }
}

/** The file versions `symbolChannel` reads for a pair, for a caller that reads many pairs' at once. */
export function pairBlobQueries(
  base: string,
  commitA: string,
  filesA: readonly WorkingSetFile[],
  commitB: string,
  filesB: readonly WorkingSetFile[],
): BlobQuery[] {
  const a = scripts(filesA);
  const b = scripts(filesB);
  if (a.length === 0 || b.length === 0) return [];
  return [...versions(base, { id: 'a', commit: commitA, files: a }), ...versions(base, { id: 'b', commit: commitB, files: b })];
}

/** This pair's share of a shared read (absent keys stay absent, as `readBlobs` leaves them). */
function pick(all: ReadonlyMap<string, string>, queries: readonly BlobQuery[]): Map<string, string> {
  const blobs = new Map<string, string>();
  for (const q of queries) {
    const key = blobKey(q.commit, q.path);
    const text = all.get(key);
    if (text !== undefined) blobs.set(key, text);
  }
  return blobs;
}

const OBJECT_ID = /^[0-9a-f]{40,64}$/;

/**
 * Both sides' changed files against `base`, unless the caller has them. Object ids (the beacon
 * path) take ONE `diff-tree --stdin` for both: each git process costs ~100 ms on a loaded machine.
 */
async function sideFiles(
  cwd: string,
  base: string,
  commitA: string,
  commitB: string,
  options: SymbolChannelOptions,
): Promise<readonly [readonly WorkingSetFile[], readonly WorkingSetFile[]]> {
  const diffOptions = { ignore: options.ignore };
  if (!options.filesA && !options.filesB && [base, commitA, commitB].every((id) => OBJECT_ID.test(id))) {
    const requests = [
      { base, target: commitA },
      { base, target: commitB },
    ];
    const diffs = await diffWorkingSets(cwd, requests, diffOptions);
    return [diffs.get(diffKey(requests[0]!))?.files ?? [], diffs.get(diffKey(requests[1]!))?.files ?? []];
  }
  return Promise.all([
    options.filesA ?? diffWorkingSet(cwd, base, commitA, diffOptions).then((d) => d.files),
    options.filesB ?? diffWorkingSet(cwd, base, commitB, diffOptions).then((d) => d.files),
  ]);
}

function scripts(files: readonly WorkingSetFile[]): WorkingSetFile[] {
  return files.filter((f) => !f.binary && (isScriptPath(f.file) || isScriptPath(f.path ?? f.file)));
}

const sidePath = (f: WorkingSetFile): string => f.path ?? f.file;

function versions(base: string, side: Side): BlobQuery[] {
  return side.files.flatMap((f) => [
    ...(f.status !== 'A' ? [{ commit: base, path: f.file }] : []),
    ...(f.status !== 'D' ? [{ commit: side.commit, path: sidePath(f) }] : []),
  ]);
}

type FactsReader = (commit: string, path: string) => ModuleFacts | null;

/** Parses each file version once, whichever step asks first. */
function factsReader(
  parse: ParseSource,
  blobs: Map<string, string>,
  { programs, facts }: ParseMemo,
): FactsReader & { program(commit: string, path: string): ReturnType<ParseSource> } {
  const program = (commit: string, path: string): ReturnType<ParseSource> => {
    const key = blobKey(commit, path);
    if (!programs.has(key)) {
      const text = blobs.get(key);
      programs.set(key, text === undefined ? null : parse(path, text));
    }
    return programs.get(key) ?? null;
  };
  const read = (commit: string, path: string): ModuleFacts | null => {
    const key = blobKey(commit, path);
    if (!facts.has(key)) {
      const tree = program(commit, path);
      facts.set(key, tree ? readModuleFacts(tree, blobs.get(key)!) : null);
    }
    return facts.get(key) ?? null;
  };
  return Object.assign(read, { program });
}

const EMPTY: ModuleFacts = { declarations: [], reExports: [], imports: [] };

/** Per changed file (under both its base and side path), what the side did to its declarations. */
function changedDeclarations(base: string, side: Side, read: FactsReader): Map<string, ChangedFile> {
  const changed = new Map<string, ChangedFile>();
  for (const f of side.files) {
    if (f.status === 'A') continue;
    const before = read(base, f.file);
    // A version that does not parse says nothing: it must not read as "every export removed".
    const after = f.status === 'D' ? EMPTY : read(side.commit, sidePath(f));
    if (!before || !after) continue;
    const changes = diffModules(before, after);
    if (changes.length === 0) continue;
    const entry = { path: f.status === 'D' ? f.file : sidePath(f), changes };
    changed.set(f.file, entry);
    changed.set(sidePath(f), entry);
  }
  return changed;
}

/**
 * What `side` changed, as far as `uses` (the other side's new code) can meet it — the same
 * collisions and notes as changedDeclarations of every file, parsing fewer of `side`'s versions:
 * - a use through an import meets a change by name, and every change a caller can notice is named
 *   after a declaration or re-export of the file's base version (diffModules), so only the files whose
 *   base version declares such a name are worked out; when one of them did change it, the use will be
 *   resolved, and resolution stops at any changed file, so then every file is worked out;
 * - a use of the file's own declaration meets only a change in that same file.
 * Otherwise nothing the uses could resolve is left out: they resolve nothing (src/symbols/resolve-import.ts).
 */
function changesMet(base: string, side: Side, uses: readonly SideUse[], read: FactsReader): Map<string, ChangedFile> {
  const imported = new Set<string>();
  const localPaths = new Set<string>();
  for (const file of uses) {
    const imports = new Map(file.facts.imports.map((binding) => [binding.local, binding]));
    for (const use of file.uses) {
      const binding = imports.get(use.name);
      if (!binding) {
        localPaths.add(file.path);
        continue;
      }
      // Every name resolvedUses may look the use up by.
      if (binding.imported !== '*') imported.add(binding.imported);
      if (use.member !== undefined) imported.add(use.member);
      imported.add('default');
    }
  }
  const declares = (f: WorkingSetFile): boolean => {
    const facts = f.status === 'A' ? null : read(base, f.file);
    return facts !== null && (facts.declarations.some((d) => d.exported && imported.has(d.name)) || facts.reExports.some((r) => imported.has(r.name)));
  };
  const met = side.files.filter((f) => localPaths.has(f.file) || localPaths.has(sidePath(f)) || declares(f));
  const partial = changedDeclarations(base, { ...side, files: met }, read);
  const used = [...partial.values()].some((entry) => entry.changes.some((c) => c.exported && imported.has(c.name)));
  return used && met.length < side.files.length ? changedDeclarations(base, side, read) : partial;
}

/** A file of a side's new code: the uses in its changed lines of a name it imports or declares, and the file's own facts. */
interface SideUse {
  readonly path: string;
  readonly facts: ModuleFacts;
  readonly uses: readonly UseSite[];
}

/** What a side's changed lines reference, per file (its versions parsed, once, through `read`). */
function newCodeUses(
  base: string,
  side: Side,
  blobs: Map<string, string>,
  read: FactsReader & { program(commit: string, path: string): ReturnType<ParseSource> },
  namedOnly: boolean,
): SideUse[] {
  const found: SideUse[] = [];
  for (const f of side.files) {
    if (f.status === 'D') continue;
    const path = sidePath(f);
    const text = blobs.get(blobKey(side.commit, path));
    const program = read.program(side.commit, path);
    const facts = read(side.commit, path);
    if (text === undefined || !program || !facts) continue;
    const fresh = addedLines(f.status === 'A' ? null : (blobs.get(blobKey(base, f.file)) ?? null), text);
    // Only a name the file imports or declares at its top level can resolve to a declaration
    // (resolvedUses): a parameter or a local variable in a new line meets nothing of the other side.
    const uses = readUses(program, text, (line) => fresh.has(line));
    const named = new Set([...facts.imports.map((binding) => binding.local), ...facts.declarations.map((d) => d.local)]);
    found.push({ path, facts, uses: namedOnly ? uses.filter((use) => named.has(use.name)) : uses });
  }
  return found;
}

/** A side's work since a base: its changed declarations (changedDeclarations) and its new code's uses. */
interface SideWork {
  readonly changed: ReadonlyMap<string, ChangedFile>;
  readonly uses: readonly SideUse[];
}

/**
 * The memo key of a side's work: its commit first (what keptFor in src/channels/symbol-channels.ts
 * tells shared from not), the base, and its file list, which a pair may have cut (identical edits).
 */
function sideKey(base: string, side: Side): string {
  return `${side.commit}:${base}:${JSON.stringify(side.files.map((f) => [f.file, f.path ?? '', f.status, f.binary === true]))}`;
}

/** Whether every version of a side the channel parses is in the run's memo already. */
function isParsed(memo: ParseMemo, base: string, side: Side): boolean {
  return versions(base, side).every((q) => memo.programs.has(blobKey(q.commit, q.path)));
}

/** The user's uses in its changed lines, resolved to the changer's changed files. */
async function resolvedUses(
  cwd: string,
  user: Side,
  userUses: readonly SideUse[],
  changed: ReadonlyMap<string, ChangedFile>,
  parse: ParseSource,
  options: SymbolChannelOptions,
  unresolved: Set<string>,
): Promise<ResolvedUse[]> {
  const names = new Set<string>();
  const locals = new Set<string>();
  for (const entry of changed.values()) {
    for (const c of entry.changes) {
      if (c.exported) names.add(c.name);
      if (c.local !== '') locals.add(c.local);
    }
  }
  const pending: { file: string; use: ResolvedUse['use']; source: string; name: string; member?: string }[] = [];
  const resolved: ResolvedUse[] = [];
  for (const { path, facts, uses } of userUses) {
    const imports = new Map(facts.imports.map((binding) => [binding.local, binding]));
    const ownLocals = new Set(facts.declarations.map((d) => d.local));
    for (const use of uses) {
      const binding = imports.get(use.name);
      if (binding) {
        const name = binding.imported !== '*' ? binding.imported : (use.member ?? (binding.commonjs && use.args !== undefined ? 'default' : null));
        if (name !== null && names.has(name)) pending.push({ file: path, use, source: binding.source, name });
        // `util.fn()` after `import { util } from './index'`: `util` may be a namespace re-export.
        else if (name !== null && name !== 'default' && binding.imported !== '*' && use.member !== undefined && names.has(use.member))
          pending.push({ file: path, use, source: binding.source, name, member: use.member });
      } else if (ownLocals.has(use.name) && locals.has(use.name) && changed.has(path)) {
        resolved.push({ file: path, use, target: { file: path, name: use.name, sameFile: true } });
      }
    }
  }
  if (pending.length === 0) return resolved;
  options.signal?.throwIfAborted();
  const context = resolveContext(cwd, user.commit, changed, parse, options, unresolved);
  await context.prefetch(pending.flatMap((p) => importProbes(p.file, p.source)));
  for (const p of pending) {
    const target = await resolveImport(p.file, p.source, p.name, context, p.member);
    if (target) resolved.push({ file: p.file, use: p.use, target: { ...target, sameFile: false } });
  }
  return resolved;
}

function resolveContext(
  cwd: string,
  commit: string,
  changed: ReadonlyMap<string, ChangedFile>,
  parse: ParseSource,
  options: SymbolChannelOptions,
  unresolved: Set<string>,
): ResolveContext & { prefetch(paths: readonly string[]): Promise<void> } {
  const known = new Map<string, boolean>();
  let resolver: Promise<ImportResolver> | undefined;
  const barrels = new Map<string, Promise<ModuleFacts | null>>();
  const probe = async (paths: readonly string[]): Promise<void> => {
    const missing = paths.filter((p) => !known.has(p));
    if (missing.length === 0) return;
    options.signal?.throwIfAborted();
    const found = await existingPaths(
      cwd,
      missing.map((path) => ({ commit, path })),
    );
    for (const p of missing) known.set(p, found.has(blobKey(commit, p)));
  };
  return {
    changedFiles: new Set(changed.keys()),
    prefetch: probe,
    async resolveNonRelative(importer, specifier) {
      resolver ??= sharedTreeResolver(cwd, commit, options.signal);
      return (await resolver).resolve(importer, specifier);
    },
    onUnresolved(specifier, why) {
      unresolved.add(symbolMessages.unresolvedImport(specifier, why));
    },
    async existing(paths) {
      await probe(paths);
      return new Set(paths.filter((p) => known.get(p)));
    },
    factsOf(path) {
      if (!barrels.has(path)) {
        barrels.set(
          path,
          (async () => {
            options.signal?.throwIfAborted();
            const text = (await readBlobs(cwd, [{ commit, path }])).get(blobKey(commit, path));
            const tree = text === undefined ? null : parse(path, text);
            return tree && text !== undefined ? readModuleFacts(tree, text) : null;
          })(),
        );
      }
      return barrels.get(path)!;
    },
  };
}

/**
 * A commit's tree never changes: the ownship's commit is the importing side of every pair of a
 * hook, so its resolver is read once — shared only under the same signal, so that one pair's cut
 * never becomes another's error.
 */
const resolvers = new Map<string, { readonly signal: AbortSignal | undefined; readonly resolver: Promise<ImportResolver> }>();
const MAX_RESOLVERS = 8;

function sharedTreeResolver(cwd: string, commit: string, signal: AbortSignal | undefined): Promise<ImportResolver> {
  const key = `${cwd}\0${commit}`;
  const found = resolvers.get(key);
  if (found && found.signal === signal) return found.resolver;
  if (resolvers.size >= MAX_RESOLVERS) resolvers.delete(resolvers.keys().next().value!);
  const resolver = treeResolver(cwd, commit, signal);
  resolvers.set(key, { signal, resolver });
  // A read cut short (the budget, a git failure) is not kept for the next pair to inherit.
  resolver.catch(() => {
    if (resolvers.get(key)?.resolver === resolver) resolvers.delete(key);
  });
  return resolver;
}

/**
 * The one import resolver (src/source/resolve-import-specifier.ts) over the importing side's commit:
 * one `ls-tree` for its files, one blob read for its package.json and tsconfig files. Only built
 * when a changed name is imported by a package or alias specifier.
 */
async function treeResolver(cwd: string, commit: string, signal: AbortSignal | undefined): Promise<ImportResolver> {
  signal?.throwIfAborted();
  const tree = await listTreeFiles(cwd, commit);
  signal?.throwIfAborted();
  const texts = await readBlobs(
    cwd,
    [...tree.configs.keys()].map((path) => ({ commit, path })),
  );
  const libraries = await loadResolverLibraries();
  const layout = readWorkspaceLayout(tree.configs.keys(), (path) => texts.get(blobKey(commit, path)), libraries);
  return openImportResolver(layout, { kind: (path) => (tree.sources.has(path) || tree.configs.has(path) ? 'file' : 'none') }, libraries);
}
