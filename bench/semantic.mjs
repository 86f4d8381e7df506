// Symbol-channel benchmark (issue 10, point 5), on real repositories from /work/.mirror.
//
// 1. Refactorings: on side A, a real edit to an exported function that has callers in other
//    files (remove, rename, add a required parameter, change the return type, body only); on side
//    B, a new file next to an existing caller, modelled on its call site: the same import (form,
//    specifier, binding) and the same callee expression with as many arguments (`undefined`).
//    Both sides are real commits on the repository's HEAD; the product's
//    `symbolChannel(cwd, base, A, B)` judges the pair.
//    Label: the TypeScript checker (typescript 5.9, the project's dev dependency) on B's new file,
//    in B alone and in the merged tree: the merge "breaks the build" when the new file has an
//    error merged that it does not have in B alone (errors keyed by code, message and line text).
//    JavaScript is checked with `allowJs` + `checkJs`: a JavaScript signature change is a break only
//    when the checker sees one (checkJs treats untyped parameters as optional).
// 2. False alarms on real history: clean two-parent merges of the development split
//    (/work/shared/data/merge-scenarios/dev.jsonl, mongoose, express, mocha) replayed through the
//    same function on (base, parent 1, parent 2); per-pair time is recorded too.
// 3. Across packages of a workspace (issue 26): on vue core and trpc (pnpm workspaces), exported
//    functions called from ANOTHER package through a package name or a tsconfig alias
//    (`import { looseToNumber } from '@vue/shared'`), found with the product's one resolver
//    (src/source/resolve-import-specifier.ts) and followed through the package's barrels to the
//    defining file; the same five edits on side A, the same probe on side B (the same specifier).
//    Label: the same checker, with the repository's root tsconfig `paths` (vue and trpc map their
//    package names to packages/*/src there), so it resolves the package names without node_modules.
//    False alarms: clean two-parent merges of their own history (`git merge-tree` without conflict).
// Both parts are samples (seeded), so the bench stays within minutes: --targets N functions per
// repository (default 6), --history N clean merges per repository (default 120; --cross-history for
// part 3, default 40). --cross-only runs part 3 alone (output bench/results/semantic-cross.md).
// --channel <dist> judges the same pairs with another build's symbolChannel (a baseline).
// Run: npm run bench:semantic (builds first). Output: bench/results/semantic.md (--out to change).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir, loadavg, cpus } from 'node:os';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import picomatch from 'picomatch';
import ts from 'typescript';
import { gitIn, benchGitEnv } from './lib/git-run.mjs';
import { rng } from './lib/rng.mjs';
import { loadParser } from '../dist/symbols/load-parser.js';
import { readModuleFacts } from '../dist/symbols/read-module-facts.js';
import { readUses } from '../dist/symbols/read-uses.js';
import { resolveRelativeImport } from '../dist/source/resolve-relative-import.js';
import { openImportResolver } from '../dist/source/resolve-import-specifier.js';
import { readWorkspaceLayout } from '../dist/source/workspace-layout.js';
import { loadResolverLibraries } from '../dist/source/resolver-libraries.js';
import { isResolutionConfigPath } from '../dist/graph/source-files.js';
import { DEFAULT_IGNORE } from '../dist/config/defaults.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const PROJECT = join(HERE, '..');
const { values: opts } = parseArgs({
  options: {
    targets: { type: 'string' },
    history: { type: 'string' },
    'cross-history': { type: 'string' },
    'cross-only': { type: 'boolean' },
    /** Judge with another build's symbol channel (`--channel /tmp/main/dist`): the same pairs, a baseline. */
    channel: { type: 'string' },
    out: { type: 'string' },
    keep: { type: 'boolean' },
  },
});
const CROSS_ONLY = opts['cross-only'] === true;
const { symbolChannel } = await import(join(opts.channel ?? join(PROJECT, 'dist'), 'symbols', 'symbol-channel.js'));
const CROSS_HISTORY = Number(opts['cross-history'] ?? 40);
const TARGETS = Number(opts.targets ?? 6);
const HISTORY = Number(opts.history ?? 120);
const out = opts.out ?? join(PROJECT, 'bench', 'results', CROSS_ONLY ? 'semantic-cross.md' : 'semantic.md');
const log = (text) => process.stderr.write(`[semantic] ${text}\n`);
const TAU_TA = 0.62;

const REPOS = [
  { name: 'colinhacks/zod', mirror: 'colinhacks+zod', lang: 'TypeScript', roots: ['packages/zod/src/v4/'] },
  { name: 'trpc/trpc', mirror: 'trpc+trpc', lang: 'TypeScript', roots: ['packages/server/src/', 'packages/client/src/'] },
  { name: 'Automattic/mongoose', mirror: 'Automattic+mongoose', lang: 'JavaScript', roots: ['lib/'] },
  { name: 'expressjs/express', mirror: 'expressjs+express', lang: 'JavaScript', roots: ['lib/'] },
];
const KINDS = ['remove', 'rename', 'add-required-param', 'change-return-type', 'body-only'];
/** Part 3: workspaces whose packages call each other by name; `roots` hold the packages' sources. */
const CROSS_REPOS = [
  { name: 'vuejs/core', mirror: 'vuejs+core', lang: 'TypeScript', roots: ['packages/'], cross: true },
  { name: 'trpc/trpc', mirror: 'trpc+trpc', lang: 'TypeScript', roots: ['packages/'], cross: true },
];

const libraries = await loadResolverLibraries();
const loadedParser = await loadParser();
if (typeof loadedParser === 'string') throw new Error(loadedParser);
const parse = loadedParser;
const root = mkdtempSync(join(tmpdir(), 'airspace-semantic-'));
const started = Date.now();
const load = loadavg()[0];

try {
  const refactorings = [];
  for (const repo of CROSS_ONLY ? CROSS_REPOS : [...REPOS, ...CROSS_REPOS]) {
    if (!mirrored(repo.mirror)) continue;
    const dir = join(root, `${repo.mirror}${repo.cross ? '-cross' : ''}`);
    gitIn(root, ['clone', '-q', join('/work/.mirror', repo.mirror, 'repo'), dir]);
    const targets = repo.cross ? findCrossTargets(dir, repo) : findTargets(dir, repo);
    log(`${repo.name}: ${targets.length} exported functions with callers in other files; sampling ${Math.min(TARGETS, targets.length)}`);
    const pick = sample(targets, TARGETS, 10);
    const checker = typeChecker(dir, repo.lang === 'JavaScript', repo.cross ? rootPaths(dir) : undefined);
    for (const target of pick) {
      for (const kind of KINDS) {
        const row = await refactor(dir, repo, target, kind, checker);
        if (row) refactorings.push(row);
      }
    }
  }
  log(`refactorings done: ${refactorings.length}`);
  const history = [...(CROSS_ONLY ? [] : await replayHistory(root)), ...(await replayCrossHistory(root))];
  writeFileSync(out, render(refactorings, history));
  writeFileSync(
    out.replace(/\.md$/, '.json'),
    JSON.stringify({ refactorings, history: history.map(({ collisions, ...h }) => ({ ...h, collisions: collisions.length })) }, null, 1),
  );
  log(`wrote ${out} in ${Math.round((Date.now() - started) / 1000)} s`);
} finally {
  if (!opts.keep) rmSync(root, { recursive: true, force: true });
}

/** A repository not fetched on this machine is skipped, and said so (the report lists what ran). */
function mirrored(mirror) {
  if (existsSync(join('/work/.mirror', mirror, 'repo'))) return true;
  log(`${mirror}: not in /work/.mirror, skipped`);
  return false;
}

function sample(list, n, seed) {
  const random = rng(seed);
  const copy = [...list];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy.slice(0, n);
}

function isSource(path, repo) {
  return repo.roots.some((r) => path.startsWith(r)) && /\.(?:[cm]?[jt]s)$/.test(path) && !/\.d\.ts$|\.test\.|\.spec\.|__tests__|\/tests?\//.test(path);
}

/** Exported functions (ESM or CommonJS) with a call site in another file, found with the product's own readers. */
function findTargets(dir, repo) {
  const files = gitIn(dir, ['ls-files'])
    .split('\n')
    .filter((p) => isSource(p, repo));
  const exists = new Set(files);
  const facts = new Map();
  const texts = new Map();
  for (const file of files) {
    const text = readFileSync(join(dir, file), 'utf8');
    const program = parse(file, text);
    if (!program) continue;
    texts.set(file, text);
    facts.set(file, { program, facts: readModuleFacts(program, text) });
  }
  const callers = new Map();
  for (const [file, { program, facts: f }] of facts) {
    const uses = readUses(program, texts.get(file), () => true).filter((u) => u.args !== undefined && u.args !== null);
    for (const binding of f.imports) {
      const target = resolveRelativeImport({ kind: (p) => (exists.has(p) ? 'file' : 'none') }, dirname(file) === '.' ? '' : dirname(file), binding.source);
      if (!target) continue;
      for (const use of uses) {
        if (use.name !== binding.local) continue;
        const name = binding.imported !== '*' ? (use.member ? null : binding.imported) : (use.member ?? (binding.commonjs ? 'default' : null));
        if (!name) continue;
        const key = `${target}\0${name}`;
        if (!callers.has(key)) callers.set(key, []);
        const callee = use.member ? `${use.name}.${use.member}` : use.name;
        callers.get(key).push({ file, callee, args: use.args, line: use.line, binding });
      }
    }
  }
  const targets = [];
  for (const [file, { facts: f }] of facts) {
    for (const d of f.declarations) {
      if (!d.exported || d.kind !== 'function' || !d.signature.params || d.signature.params.some((p) => p.rest)) continue;
      const sites = (callers.get(`${file}\0${d.name}`) ?? []).filter((s) => s.file !== file);
      if (sites.length > 0) targets.push({ file, name: d.name, local: d.local, line: d.line, site: sites[0] });
    }
  }
  return targets.sort((x, y) => `${x.file}:${x.name}`.localeCompare(`${y.file}:${y.name}`));
}

/** The root tsconfig's `paths`, for the checker to resolve package names without node_modules. */
function rootPaths(dir) {
  const file = join(dir, 'tsconfig.json');
  const read = ts.readConfigFile(file, ts.sys.readFile);
  const paths = read.config?.compilerOptions?.paths;
  return paths ? { paths, baseUrl: dir } : undefined;
}

/** A workspace package's directory for a path (`packages/shared/src/x.ts` → `packages/shared`). */
function packageDirOf(path, packageDirs) {
  let best = '';
  for (const dir of packageDirs) if (path.startsWith(`${dir}/`) && dir.length > best.length) best = dir;
  return best;
}

/**
 * Exported functions called from another workspace package through a package name or an alias:
 * each non-relative import is resolved with the product's one resolver and followed through the
 * package's barrels (`export *`, `export { x } from`) to the file that declares the name.
 */
function findCrossTargets(dir, repo) {
  const all = gitIn(dir, ['ls-files']).split('\n').filter(Boolean);
  const exists = new Set(all);
  const layout = readWorkspaceLayout(
    all.filter((p) => isResolutionConfigPath(p)),
    (p) => {
      try {
        return readFileSync(join(dir, p), 'utf8');
      } catch {
        return undefined;
      }
    },
    libraries,
  );
  const packageDirs = [...layout.packages.values()].map((p) => p.dir).filter((d) => d !== '');
  const resolver = openImportResolver(layout, { kind: (p) => (exists.has(p) ? 'file' : 'none') }, libraries);
  const files = all.filter((p) => isSource(p, repo));
  const facts = new Map();
  const texts = new Map();
  const factsOf = (file) => {
    if (facts.has(file)) return facts.get(file);
    let entry = null;
    if (exists.has(file) && /\.[cm]?[jt]sx?$/.test(file)) {
      const text = readFileSync(join(dir, file), 'utf8');
      const program = parse(file, text);
      if (program) {
        texts.set(file, text);
        entry = { program, facts: readModuleFacts(program, text) };
      }
    }
    facts.set(file, entry);
    return entry;
  };
  const resolve = (from, specifier) => {
    const found = resolver.resolve(from, specifier);
    return found.kind === 'file' ? found.path : null;
  };
  /**
   * The file that declares `name` as seen through `file` (its barrels followed, 4 hops at most), and
   * the barrels that re-export it BY NAME on the way: a real removal or rename edits those too (tsc
   * fails in the barrel otherwise), and without that edit the importer sees an error-typed export.
   */
  const declaring = (file, name, hops = 0) => {
    const entry = factsOf(file);
    if (!entry) return null;
    if (entry.facts.declarations.some((d) => d.exported && d.name === name && d.kind === 'function')) return { file, name, barrels: [] };
    if (hops >= 4) return null;
    for (const re of entry.facts.reExports) {
      if (re.name !== name && re.name !== '*') continue;
      const next = resolve(file, re.source);
      const found = next && declaring(next, re.name === '*' ? name : re.imported, hops + 1);
      if (found) return re.name === '*' ? found : { ...found, barrels: [...found.barrels, { file, name: re.name, source: re.source }] };
    }
    return null;
  };
  const callers = new Map();
  for (const file of files) {
    const entry = factsOf(file);
    if (!entry) continue;
    const uses = readUses(entry.program, texts.get(file), () => true).filter((u) => u.args !== undefined && u.args !== null && !u.member);
    for (const binding of entry.facts.imports) {
      if (binding.source.startsWith('.') || binding.imported === '*' || binding.imported === 'default') continue;
      const entryFile = resolve(file, binding.source);
      if (!entryFile || packageDirOf(entryFile, packageDirs) === packageDirOf(file, packageDirs)) continue;
      const target = declaring(entryFile, binding.imported);
      // A name renamed on the way (`export { a as b }`) is left out: the edit below renames one name.
      if (!target || target.barrels.some((barrel) => barrel.name !== target.name)) continue;
      for (const use of uses) {
        if (use.name !== binding.local) continue;
        const key = `${target.file}\0${target.name}`;
        if (!callers.has(key)) callers.set(key, []);
        callers.get(key).push({ file, callee: use.name, args: use.args, line: use.line, binding, barrels: target.barrels });
      }
    }
  }
  const targets = [];
  for (const [key, sites] of callers) {
    const [file, name] = key.split('\0');
    const d = factsOf(file)?.facts.declarations.find((x) => x.exported && x.name === name);
    if (!d?.signature.params || d.signature.params.some((p) => p.rest)) continue;
    targets.push({ file, name: d.name, local: d.local, line: d.line, site: sites[0], barrels: sites[0].barrels });
  }
  return targets.sort((x, y) => `${x.file}:${x.name}`.localeCompare(`${y.file}:${y.name}`));
}

/** Clean two-parent merges of vue's and trpc's own history (no conflict in `git merge-tree`). */
async function replayCrossHistory(base) {
  const rows = [];
  for (const repo of CROSS_REPOS) {
    const dir = join(base, `${repo.mirror}-cross-history`);
    if (!existsSync(dir)) gitIn(base, ['clone', '-q', '--bare', join('/work/.mirror', repo.mirror, 'repo'), dir]);
    const merges = gitIn(dir, ['log', '--merges', '--format=%H %P', 'HEAD'])
      .split('\n')
      .filter(Boolean)
      .map((line) => line.split(' '))
      .filter((parts) => parts.length === 3);
    const picked = [];
    for (const [merge, p1, p2] of sample(merges, merges.length, 30)) {
      if (picked.length >= CROSS_HISTORY) break;
      try {
        execFileSync('git', ['merge-tree', '--write-tree', p1, p2], { cwd: dir, env: benchGitEnv(), stdio: 'ignore' });
      } catch {
        continue; // a conflict (or an unrelated history): not a clean merge
      }
      const mergeBase = gitIn(dir, ['merge-base', p1, p2]).trim();
      if (mergeBase) picked.push({ merge, p1, p2, base: mergeBase });
    }
    log(`${repo.name}: replaying ${picked.length} of ${merges.length} merges (clean ones)`);
    for (const s of picked) {
      const t0 = performance.now();
      let result;
      try {
        result = await symbolChannel(dir, s.base, s.p1, s.p2, { ids: { a: 'p1', b: 'p2' } });
      } catch (error) {
        result = { value: null, collisions: [], reason: String(error) };
      }
      const ms = performance.now() - t0;
      const level = result.evidence ? 'RA' : (result.value ?? 0) >= TAU_TA ? 'TA' : result.value === null ? 'unknown' : 'clear';
      if (level !== 'clear')
        log(
          `  ${s.merge.slice(0, 10)} ${level}: ${
            result.reason ??
            result.collisions
              .slice(0, 2)
              .map((c) => `${c.change} ${c.symbol} ${c.declaration.file} ← ${c.use.file}:${c.use.line}`)
              .join('; ')
          }`,
        );
      rows.push({ repo: repo.name, merge: s.merge, level, ms, collisions: result.collisions, reason: result.reason ?? null });
    }
  }
  return rows;
}

/** The function's AST node and the statement holding it, found again in the defining file. */
function locate(program, target) {
  for (const statement of program.body) {
    const inner = statement.type.startsWith('Export') && statement.declaration ? statement.declaration : statement;
    if (inner.type === 'FunctionDeclaration' && inner.id?.name === target.local) return { statement, fn: inner, id: inner.id };
    if (inner.type === 'VariableDeclaration') {
      for (const d of inner.declarations) if (d.id?.name === target.local && /Function/.test(d.init?.type ?? '')) return { statement, fn: d.init, id: d.id };
    }
    if (statement.type === 'ExpressionStatement' && statement.expression.type === 'AssignmentExpression') {
      let right = statement.expression.right;
      while (right.type === 'AssignmentExpression') right = right.right;
      const left = statement.expression.left;
      const prop = left.type === 'MemberExpression' ? left.property : null;
      if (
        /Function/.test(right.type) &&
        (prop?.name === target.name ||
          (target.name === 'default' && right.id?.name === target.local) ||
          (target.name === 'default' && prop?.name === 'exports'))
      ) {
        return { statement, fn: right, id: target.name === 'default' ? (right.id ?? null) : prop };
      }
    }
  }
  return null;
}

function editFor(kind, text, found, ts) {
  const { statement, fn, id } = found;
  const splice = (start, end, insert) => text.slice(0, start) + insert + text.slice(end);
  switch (kind) {
    case 'remove':
      return splice(statement.start, statement.end, '');
    case 'rename':
      return id ? splice(id.start, id.end, `${id.name}Renamed`) : null;
    case 'add-required-param': {
      const params = fn.params;
      const closing = params.length > 0 ? params.at(-1).end : text.indexOf('(', fn.id ? fn.id.end : fn.start) + 1;
      if (closing <= 0) return null;
      return splice(closing, closing, `${params.length > 0 ? ', ' : ''}required${ts ? ': string' : ''}`);
    }
    case 'change-return-type': {
      if (fn.async || fn.generator) return null;
      let edited = text;
      if (fn.returnType) {
        const type = fn.returnType.typeAnnotation;
        edited = edited.slice(0, type.start) + `Promise<${text.slice(type.start, type.end)}>` + edited.slice(type.end);
      }
      return edited.slice(0, fn.start) + 'async ' + edited.slice(fn.start);
    }
    case 'body-only': {
      const body = fn.body;
      if (body?.type !== 'BlockStatement') return null;
      return splice(body.start + 1, body.start + 1, '\n  void 0;');
    }
  }
  return null;
}

/** A removal or rename also edits the `export { name } from` of the barrels on the way (part 3). */
function barrelEdits(dir, target, kind) {
  if ((kind !== 'remove' && kind !== 'rename') || !target.barrels?.length) return {};
  const edits = {};
  for (const barrel of target.barrels) {
    const text = edits[barrel.file] ?? readFileSync(join(dir, barrel.file), 'utf8');
    const quoted = barrel.source.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const statement = new RegExp(`export\\s*(?:type\\s*)?\\{[^}]*\\}\\s*from\\s*['"]${quoted}['"]`);
    const match = statement.exec(text);
    if (!match) continue;
    const name = new RegExp(`\\b${barrel.name}\\b(\\s*,)?`);
    const replaced = kind === 'remove' ? match[0].replace(name, '') : match[0].replace(new RegExp(`\\b${barrel.name}\\b`), `${barrel.name}Renamed`);
    edits[barrel.file] = text.slice(0, match.index) + replaced + text.slice(match.index + match[0].length);
  }
  return edits;
}

/** A commit on `base` with `files` replaced (plumbing: a temporary index, no checkout). */
function commitWith(dir, base, files, message) {
  const index = join(root, `index-${process.pid}`);
  const env = benchGitEnv({ GIT_INDEX_FILE: index });
  const git = (args, input) => execFileSync('git', args, { cwd: dir, env, input, encoding: 'utf8' }).trim();
  git(['read-tree', base]);
  for (const [path, content] of Object.entries(files)) {
    const blob = git(['hash-object', '-w', '--stdin'], content);
    git(['update-index', '--add', '--cacheinfo', `100644,${blob},${path}`]);
  }
  const tree = git(['write-tree']);
  rmSync(index, { force: true });
  return git(['commit-tree', tree, '-p', base, '-m', message]);
}

async function refactor(dir, repo, target, kind, checker) {
  const text = readFileSync(join(dir, target.file), 'utf8');
  const program = parse(target.file, text);
  const found = program && locate(program, target);
  if (!found) return null;
  const isTs = repo.lang === 'TypeScript';
  const edited = editFor(kind, text, found, isTs);
  if (edited === null || edited === text) return null;
  const { binding, callee } = target.site;
  const args = Array.from({ length: target.site.args }, () => (isTs ? 'undefined as any' : 'undefined')).join(', ');
  const ext = target.site.file.match(/\.[cm]?[jt]s$/)[0];
  const probeFile = posix.join(posix.dirname(target.site.file), `airspace-probe-${kind}${ext}`);
  const source = JSON.stringify(binding.source);
  const esm = (!binding.commonjs && !/require\(/.test(readFileSync(join(dir, target.site.file), 'utf8').slice(0, 20_000))) || isTs;
  const importLine = binding.commonjs
    ? `const ${binding.local} = require(${source});`
    : !esm
      ? `const { ${binding.imported}: ${binding.local} } = require(${source});`
      : binding.imported === '*'
        ? `import * as ${binding.local} from ${source};`
        : binding.imported === 'default'
          ? `import ${binding.local} from ${source};`
          : `import { ${binding.imported} as ${binding.local} } from ${source};`;
  const body = `function airspaceProbe() {\n  return ${callee}(${args});\n}\n`;
  const probe = `${importLine}\n\n${esm ? `export ${body}` : `${body}\nmodule.exports = airspaceProbe;\n`}`;
  const base = gitIn(dir, ['rev-parse', 'HEAD']).trim();
  const sideA = { [target.file]: edited, ...barrelEdits(dir, target, kind) };
  const a = commitWith(dir, base, sideA, `A: ${kind} ${target.name}`);
  const b = commitWith(dir, base, { [probeFile]: probe }, `B: new caller of ${target.name}`);
  const t0 = performance.now();
  const result = await symbolChannel(dir, base, a, b, { ids: { a: 'A', b: 'B' } });
  const ms = performance.now() - t0;
  const named = result.collisions.filter((c) => c.changedBy === 'A' && (c.symbol === target.name || c.symbol === target.local));
  const fired = named.length > 0 ? (result.evidence ? 'RA' : (result.value ?? 0) >= TAU_TA ? 'TA' : 'none') : 'none';
  const label = checker.breaks(probeFile, sideA, { [probeFile]: probe });
  log(`${repo.name} ${kind} ${target.file}#${target.name}: fired ${fired}, merged build breaks: ${label.breaks}${label.sample ? ` (${label.sample})` : ''}`);
  return {
    repo: repo.name,
    lang: repo.lang,
    cross: repo.cross === true,
    kind,
    target: `${target.file}#${target.name}`,
    fired,
    breaks: label.breaks,
    ms,
    value: result.value,
    reason: result.reason ?? null,
  };
}

/** TypeScript's checker over the two affected files, with the sides' versions laid over the clone. */
function typeChecker(dir, js, paths) {
  const options = {
    ...(paths ?? {}),
    noEmit: true,
    allowJs: true,
    checkJs: js,
    skipLibCheck: true,
    strict: !js,
    target: ts.ScriptTarget.ESNext,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    types: [],
    jsx: ts.JsxEmit.Preserve,
    allowImportingTsExtensions: true,
    resolveJsonModule: true,
    noImplicitAny: false,
  };
  const cache = new Map();
  let previous;
  const diagnostics = (roots, overlay) => {
    const host = ts.createCompilerHost(options);
    const abs = Object.fromEntries(Object.entries(overlay).map(([p, c]) => [join(dir, p), c]));
    const read = host.readFile.bind(host);
    host.readFile = (f) => abs[f] ?? read(f);
    host.fileExists = (f) => f in abs || ts.sys.fileExists(f);
    host.getSourceFile = (f, language) => {
      if (f in abs) return ts.createSourceFile(f, abs[f], language, true);
      if (!cache.has(f)) {
        const text = read(f);
        cache.set(f, text === undefined ? undefined : ts.createSourceFile(f, text, language, true));
      }
      return cache.get(f);
    };
    const program = ts.createProgram(
      roots.map((r) => join(dir, r)),
      options,
      host,
      previous,
    );
    previous = program;
    const keys = new Set();
    for (const r of roots) {
      const file = program.getSourceFile(join(dir, r));
      if (!file) continue;
      // Keyed by the text of the line (not its number, which shifts): the same error at an old
      // call site in A alone and at B's new call in the merge must count as two errors.
      for (const d of [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)]) {
        const { line } = d.start === undefined ? { line: -1 } : file.getLineAndCharacterOfPosition(d.start);
        const lineText = line < 0 ? '' : (file.text.split('\n')[line]?.trim() ?? '');
        keys.add(`${r}|TS${d.code}|${ts.flattenDiagnosticMessageText(d.messageText, ' ')}|${lineText}`);
      }
    }
    return keys;
  };
  return {
    breaks(probeFile, sideA, sideB) {
      const onlyB = diagnostics([probeFile], sideB);
      const merged = diagnostics([probeFile], { ...sideA, ...sideB });
      const fresh = [...merged].filter((k) => !onlyB.has(k));
      return { breaks: fresh.length > 0, sample: fresh[0]?.slice(0, 160) };
    },
  };
}

async function replayHistory(base) {
  const scenarios = readFileSync('/work/shared/data/merge-scenarios/dev.jsonl', 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  const ignore = picomatch([...DEFAULT_IGNORE], { dot: true });
  const rows = [];
  for (const repo of ['Automattic/mongoose', 'expressjs/express', 'mochajs/mocha']) {
    const mirror = repo.replace('/', '+');
    if (!mirrored(mirror)) continue;
    const dir = join(base, `${mirror}-history`);
    if (!existsSync(dir)) gitIn(base, ['clone', '-q', '--bare', join('/work/.mirror', mirror, 'repo'), dir]);
    const clean = scenarios.filter((s) => s.repo === repo && s.label_conflict === false && !s.huge);
    const picked = sample(clean, HISTORY, 20);
    log(`${repo}: replaying ${picked.length} of ${clean.length} clean merges`);
    for (const s of picked) {
      const t0 = performance.now();
      let result;
      try {
        result = await symbolChannel(dir, s.base, s.p1, s.p2, { ids: { a: 'p1', b: 'p2' }, ignore });
      } catch (error) {
        result = { value: null, collisions: [], reason: String(error) };
      }
      const ms = performance.now() - t0;
      const level = result.evidence ? 'RA' : (result.value ?? 0) >= TAU_TA ? 'TA' : result.value === null ? 'unknown' : 'clear';
      if (level === 'RA' || level === 'TA')
        log(
          `  ${s.merge.slice(0, 10)} ${level}: ${result.collisions
            .slice(0, 2)
            .map((c) => `${c.change} ${c.symbol} ${c.declaration.file} ← ${c.use.file}:${c.use.line}`)
            .join('; ')}`,
        );
      rows.push({ repo, merge: s.merge, level, ms, collisions: result.collisions, reason: result.reason ?? null });
    }
  }
  return rows;
}

function pct(x, n) {
  return n === 0 ? '–' : `${((100 * x) / n).toFixed(1)} %`;
}

function quantile(values, q) {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

function render(refactorings, history) {
  const lines = [
    '# Symbol channel — `npm run bench:semantic`',
    '',
    `Generated ${new Date().toISOString()} in ${Math.round((Date.now() - started) / 1000)} s on ${cpus().length} cores (load ${load.toFixed(1)} at start).`,
    `Samples: ${TARGETS} exported functions with callers per repository (seed 10), ${CROSS_ONLY ? '' : `${HISTORY} clean merges per repository of mongoose, express, mocha (seed 20), `}${CROSS_HISTORY} clean merges of vue core and trpc (seed 30).`,
    ...(opts.channel ? [`Judged with the symbol channel of ${opts.channel}.`] : []),
    'Method: see the header of bench/semantic.mjs. "fires" = the symbol channel names the refactored function',
    '(TA: r ≥ τ_TA without evidence; RA: with evidence). "breaks" = B\'s new file has a type error in the merged',
    'tree that it does not have in B alone (TypeScript 5.9 checker; JavaScript with allowJs + checkJs).',
    '',
    '## Refactorings on side A, a new caller on side B',
    '',
    '| repository | change | pairs | breaks | fires (RA / TA) | precision | recall |',
    '|---|---|---|---|---|---|---|',
  ];
  /** @type {Array<[string, (x: any) => boolean]>} */
  const scopes = [...REPOS, ...CROSS_REPOS].map((r) => [
    r.cross ? `${r.name} (across packages)` : r.name,
    (x) => x.repo === r.name && x.cross === (r.cross === true),
  ]);
  scopes.push(['all across packages', (x) => x.cross === true]);
  scopes.push(
    ['all TypeScript (relative imports)', (x) => x.lang === 'TypeScript' && !x.cross],
    ['all JavaScript', (x) => x.lang === 'JavaScript'],
    ['all (relative imports)', (x) => !x.cross],
  );
  for (const kind of KINDS)
    for (const [repo, inScope] of scopes) {
      const rows = refactorings.filter((r) => r.kind === kind && inScope(r));
      if (rows.length === 0) continue;
      const fired = rows.filter((r) => r.fired !== 'none');
      const tp = fired.filter((r) => r.breaks).length;
      const positives = rows.filter((r) => r.breaks).length;
      lines.push(
        `| ${repo} | ${kind} | ${rows.length} | ${positives} | ${fired.length} (${rows.filter((r) => r.fired === 'RA').length} / ${rows.filter((r) => r.fired === 'TA').length}) | ${fired.length ? (tp / fired.length).toFixed(2) : '–'} | ${positives ? (tp / positives).toFixed(2) : '–'} |`,
      );
    }
  const times = refactorings.map((r) => r.ms);
  lines.push(
    '',
    `Channel time per pair (two commits, both diffs, blobs, parse): median ${Math.round(quantile(times, 0.5))} ms, p90 ${Math.round(quantile(times, 0.9))} ms.`,
  );
  lines.push('', '### Every pair', '', '| repository | change | function | fires | breaks |', '|---|---|---|---|---|');
  for (const r of refactorings)
    lines.push(`| ${r.repo}${r.cross ? ' (across packages)' : ''} | ${r.kind} | \`${r.target}\` | ${r.fired} | ${r.breaks ? 'yes' : 'no'} |`);
  lines.push(
    '',
    '## False alarms on real clean merges (replayed history)',
    '',
    '| repository | clean merges | RA | TA | unknown | fires | median ms | p90 ms |',
    '|---|---|---|---|---|---|---|---|',
  );
  const byRepo = new Map();
  for (const h of history) for (const key of [h.repo, 'all']) (byRepo.get(key) ?? byRepo.set(key, []).get(key)).push(h);
  for (const [repo, rows] of byRepo) {
    const ra = rows.filter((r) => r.level === 'RA').length;
    const ta = rows.filter((r) => r.level === 'TA').length;
    lines.push(
      `| ${repo} | ${rows.length} | ${ra} | ${ta} | ${rows.filter((r) => r.level === 'unknown').length} | ${pct(ra + ta, rows.length)} | ${Math.round(
        quantile(
          rows.map((r) => r.ms),
          0.5,
        ),
      )} | ${Math.round(
        quantile(
          rows.map((r) => r.ms),
          0.9,
        ),
      )} |`,
    );
  }
  const alarms = history.filter((h) => h.level === 'RA' || h.level === 'TA');
  if (alarms.length > 0) {
    lines.push('', 'Every alarm:', '');
    for (const h of alarms)
      for (const c of h.collisions.slice(0, 3))
        lines.push(
          `- ${h.repo} ${h.merge.slice(0, 10)} ${h.level}: ${c.change} \`${c.symbol}\` (${c.declaration.file}:${c.declaration.line}${c.details.length ? `, ${c.details.join(', ')}` : ''}) used in ${c.use.file}:${c.use.line}`,
        );
  }
  return lines.join('\n') + '\n';
}
