// Generates the perf bench's repository: a TypeScript monorepo with a realistic import structure,
// committed on `main`, a bare remote, peer branches pushed to it (then only known as
// refs/remotes/origin/*), linked worktrees with committed and uncommitted work, and extra
// branches for the scaling table. Files are written with fs and committed once; every other
// commit is made with `git fast-import` (no checkout, no index), which is what keeps 10,000 files
// fast to set up.
import { mkdirSync, writeFileSync, readFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { gitIn, gitInput } from './git-run.mjs';
import { rng } from './rng.mjs';

/** Bump when the generated repository changes shape (a cache keyed by it must not survive). */
export const GENERATOR_VERSION = 1;

export const SIZES = {
  full: { packages: 25, areas: 8, modules: 50, peers: 10, worktrees: 10, scaleBranches: 200 },
  smoke: { packages: 3, areas: 4, modules: 25, peers: 2, worktrees: 2, scaleBranches: 10 },
};

const AREAS = ['core', 'api', 'model', 'store', 'ui', 'util', 'io', 'auth', 'jobs', 'cli'];

/** The module layout: packages/<pkg>/src/<area>/<module>.ts, the first modules of each area are hubs. */
export function layout(size) {
  const files = [];
  for (let p = 0; p < size.packages; p++) {
    for (let a = 0; a < size.areas; a++) {
      for (let m = 0; m < size.modules; m++) files.push({ pkg: p, area: a, mod: m, path: modulePath(p, a, m) });
    }
  }
  return files;
}

function modulePath(p, a, m) {
  return `packages/pkg-${String(p).padStart(2, '0')}/src/${AREAS[a % AREAS.length]}${a >= AREAS.length ? a : ''}/mod-${String(m).padStart(3, '0')}.ts`;
}

/** Imports of one module: mostly its own area, some its package, a few other packages, a few hubs. */
function importsOf(file, size, random) {
  const pick = (n) => Math.floor(random() * n);
  const targets = new Set();
  const count = 2 + pick(4);
  for (let k = 0; k < count; k++) {
    const roll = random();
    if (roll < 0.65) targets.add(modulePath(file.pkg, file.area, pick(size.modules)));
    else if (roll < 0.85) targets.add(modulePath(file.pkg, pick(size.areas), pick(size.modules)));
    else if (roll < 0.95) targets.add(modulePath(pick(size.packages), pick(size.areas), pick(size.modules)));
    else targets.add(modulePath(pick(Math.min(3, size.packages)), 0, pick(3))); // hubs: core/mod-000..002 of the first packages
  }
  targets.delete(file.path);
  return [...targets].sort();
}

function specifier(from, to) {
  const rel = posix.relative(posix.dirname(from), to).replace(/\.ts$/, '.js');
  return rel.startsWith('.') ? rel : `./${rel}`;
}

const ident = (path) =>
  path
    .replace(/^packages\//, '')
    .replace(/\.ts$/, '')
    .replace(/[^A-Za-z0-9]/g, '_');

/** A 20–40 line module importing its neighbours, with a body that edits can land in. */
export function moduleSource(file, imports, random, revision = 0) {
  const lines = [`// ${file.path}`];
  for (const target of imports) lines.push(`import { ${ident(target)} } from '${specifier(file.path, target)}';`);
  lines.push('', `export interface ${ident(file.path)}_Options {`, '  readonly label: string;', '  readonly weight: number;', '}', '');
  lines.push(`export function ${ident(file.path)}(input: number): number {`);
  lines.push(`  let total = input + ${revision};`);
  for (const target of imports) lines.push(`  total += ${ident(target)}(total % 7);`);
  const body = 8 + Math.floor(random() * 12);
  for (let i = 0; i < body; i++) lines.push(`  total = (total * ${3 + i} + ${Math.floor(random() * 1000)}) % 100003; // step ${i}`);
  lines.push('  return total;', '}', '');
  return lines.join('\n');
}

/** The content after an edit: a few body lines changed (by `who`), so peers touching one file overlap in lines. */
export function editedSource(text, who, random) {
  const lines = text.split('\n');
  const steps = lines.map((l, i) => (l.includes('// step') ? i : -1)).filter((i) => i >= 0);
  const start = steps[Math.floor(random() * Math.max(1, steps.length - 3))] ?? lines.length - 2;
  for (let i = start; i < Math.min(start + 3, lines.length - 3); i++)
    lines[i] = `  total = (total + ${Math.floor(random() * 1e6)}) % 99991; // edited by ${who}`;
  return lines.join('\n');
}

/**
 * Writes the whole setup under `root`: root/repo (main worktree), root/remote.git, root/wt-NN.
 * Returns the paths, the module list and the generation time of each step (ms).
 */
export function generateRepo(root, size, options = {}) {
  const random = rng(2026);
  const timings = {};
  const t = (name, fn) => {
    const start = performance.now();
    const value = fn();
    timings[name] = Math.round(performance.now() - start);
    return value;
  };
  const repo = join(root, 'repo');
  const remote = join(root, 'remote.git');
  const files = layout(size);
  const importMap = new Map(files.map((f) => [f.path, importsOf(f, size, random)]));

  t('write', () => {
    for (const file of files) {
      const abs = join(repo, file.path);
      mkdirSync(dirname(abs), { recursive: true });
      writeFileSync(abs, moduleSource(file, importMap.get(file.path), random));
    }
    writeFileSync(
      join(repo, 'tsconfig.json'),
      `${JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true }, include: ['packages'] }, null, 2)}\n`,
    );
    writeFileSync(join(repo, 'package.json'), `${JSON.stringify({ name: 'bench-monorepo', private: true, type: 'module' }, null, 2)}\n`);
    // The bench measures a complete graph: a full build must not stop at the default 10 s budget.
    writeFileSync(
      join(repo, '.airspacerc.json'),
      `${JSON.stringify({ graph: { budgetMs: 600_000 }, hooks: { 'pre-push': { budgetMs: 600_000 }, 'pre-commit': { budgetMs: 600_000 } } }, null, 2)}\n`,
    );
    writeFileSync(join(repo, '.gitignore'), 'node_modules/\n');
  });
  t('commit', () => {
    gitIn(root, ['init', '-q', '-b', 'main', repo]);
    gitIn(root, ['init', '-q', '--bare', '-b', 'main', remote]);
    gitIn(repo, ['add', '-A']);
    gitIn(repo, ['commit', '-q', '--no-verify', '-m', 'Initial monorepo']);
    gitIn(repo, ['remote', 'add', 'origin', remote]);
    gitIn(repo, ['push', '-q', 'origin', 'main']);
  });
  const main = gitIn(repo, ['rev-parse', 'HEAD']).trim();
  const now = Math.floor((options.now ?? Date.now()) / 1000);
  const read = (path) => readFileSync(join(repo, path), 'utf8');

  // Peers: 2 commits each, 2–3 files per commit, in one area of one package (so some overlap).
  const branchCommits = (prefix, count, commitsEach, filesEach, forkOf = (_branch) => main) => {
    const stream = [];
    let mark = 1;
    for (let b = 0; b < count; b++) {
      const name = `${prefix}-${String(b + 1).padStart(3, '0')}`;
      const base = files[Math.floor(random() * files.length)];
      let parent = forkOf(b);
      const contents = new Map();
      for (let c = 0; c < commitsEach; c++) {
        const message = `${name}: change ${c + 1}`;
        stream.push(
          `commit refs/heads/${name}`,
          `mark :${mark}`,
          `committer Bench <bench@example.com> ${now - (commitsEach - c) * 600} +0000`,
          `data ${Buffer.byteLength(message)}`,
          message,
          `from ${parent}`,
        );
        for (let k = 0; k < filesEach; k++) {
          const target = modulePath(base.pkg, base.area, Math.floor(random() * size.modules));
          const next = editedSource(contents.get(target) ?? read(target), name, random);
          contents.set(target, next);
          stream.push(`M 100644 inline ${target}`, `data ${Buffer.byteLength(next)}`, next);
        }
        stream.push('');
        parent = `:${mark}`;
        mark++;
      }
    }
    gitInput(repo, ['fast-import', '--quiet'], `${stream.join('\n')}\n`);
  };
  t('peers', () => {
    branchCommits('peer', size.peers, 2, 3);
    gitIn(repo, ['push', '-q', 'origin', 'refs/heads/peer-*:refs/heads/peer-*']);
    for (let b = 0; b < size.peers; b++) gitIn(repo, ['branch', '-q', '-D', `peer-${String(b + 1).padStart(3, '0')}`]);
    gitIn(repo, ['fetch', '-q', 'origin']);
    gitIn(repo, ['remote', 'set-head', 'origin', 'main']);
  });
  // options.forks > 1: the trunk (origin/main) moves on by forks − 1 commits of 3 files each, and
  // scale branch b leaves it at trunk commit b mod forks: lines that left the trunk at different
  // commits, as remote branches usually do. Local main stays at the first commit (no checkout).
  const forks = [main];
  if ((options.forks ?? 1) > 1) {
    t('trunk', () => {
      const stream = [];
      for (let c = 1; c < options.forks; c++) {
        const message = `trunk: step ${c}`;
        stream.push(
          'commit refs/heads/bench-trunk',
          `committer Bench <bench@example.com> ${now - (options.forks - c) * 60} +0000`,
          `data ${Buffer.byteLength(message)}`,
          message,
          ...(c === 1 ? [`from ${main}`] : []),
        );
        for (let k = 0; k < 3; k++) {
          const target = files[Math.floor(random() * files.length)].path;
          const next = editedSource(read(target), `trunk-${c}`, random);
          stream.push(`M 100644 inline ${target}`, `data ${Buffer.byteLength(next)}`, next);
        }
        stream.push('');
      }
      gitInput(repo, ['fast-import', '--quiet'], `${stream.join('\n')}\n`);
      forks.push(
        ...gitIn(repo, ['rev-list', '--first-parent', '--reverse', `${main}..bench-trunk`])
          .trim()
          .split('\n'),
      );
      gitIn(repo, ['push', '-q', 'origin', 'bench-trunk:main']);
      gitIn(repo, ['branch', '-q', '-D', 'bench-trunk']);
      gitIn(repo, ['fetch', '-q', 'origin']);
    });
  }
  t('scaleBranches', () => branchCommits('scale', size.scaleBranches, 1, 3, (b) => forks[b % forks.length]));

  const worktrees = [];
  t('worktrees', () => {
    for (let w = 0; w < size.worktrees; w++) {
      const name = `agent-${String(w + 1).padStart(2, '0')}`;
      const dir = join(root, `wt-${String(w + 1).padStart(2, '0')}`);
      gitIn(repo, ['worktree', 'add', '-q', '-b', name, dir, 'main']);
      const base = files[Math.floor(random() * files.length)];
      const pickFile = () => modulePath(base.pkg, base.area, Math.floor(random() * size.modules));
      const edit = (path) => writeFileSync(join(dir, path), editedSource(readFileSync(join(dir, path), 'utf8'), name, random));
      edit(pickFile());
      edit(pickFile());
      gitIn(dir, ['commit', '-q', '--no-verify', '-a', '-m', `${name}: first step`]);
      for (let k = 0; k < 3; k++) edit(pickFile()); // uncommitted work
      worktrees.push({ name, dir });
    }
  });
  return { root, repo, remote, worktrees, files: files.map((f) => f.path), timings };
}
