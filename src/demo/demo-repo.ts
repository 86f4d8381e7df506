import { spawn } from 'node:child_process';
import { chmod, mkdir, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runGit, type GitResult } from '../git/exec-git.js';

/**
 * The demo's airspace, built from scratch with real git: a bare remote (the shared airspace), one
 * clone whose linked worktrees are three AI agents, and a second clone for a human on "another
 * machine". A small TypeScript project gives the import graph something to read.
 */

export interface DemoAgent {
  /** Display name and branch name. */
  readonly name: string;
  readonly branch: string;
  readonly path: string;
}

export interface DemoRepo {
  readonly root: string;
  readonly remote: string;
  readonly agents: Readonly<Record<'ada' | 'cy' | 'bob' | 'dana', DemoAgent>>;
  /** Environment for git and hooks: fixed identities, our CLI first on PATH. */
  readonly env: Readonly<Record<string, string>>;
}

const lines = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `  // ${prefix} step ${i + 1}`).join('\n');

/** A small TS project: auth is imported by ui and api, billing stands apart. */
export const DEMO_FILES: Readonly<Record<string, string>> = {
  'package.json': '{ "name": "demo-shop", "private": true, "type": "module" }\n',
  'tsconfig.json': '{ "compilerOptions": { "module": "NodeNext", "moduleResolution": "NodeNext", "strict": true } }\n',
  'src/auth/session.ts': `export function openSession(user: string): string {\n${lines('session', 40)}\n  return user;\n}\n\nexport function closeSession(id: string): void {\n${lines('close', 40)}\n  void id;\n}\n`,
  'src/auth/login.ts': `import { openSession } from './session.js';\n\nexport function login(user: string): string {\n${lines('login', 30)}\n  return openSession(user);\n}\n`,
  'src/ui/form.ts': `import { login } from '../auth/login.js';\n\nexport function submit(user: string): string {\n${lines('form', 30)}\n  return login(user);\n}\n`,
  'src/api/client.ts': `import { openSession } from '../auth/session.js';\n\nexport function connect(user: string): string {\n${lines('client', 30)}\n  return openSession(user);\n}\n`,
  'src/billing/invoice.ts': `export function invoice(total: number): string {\n${lines('invoice', 40)}\n  return String(total);\n}\n`,
  'src/billing/tax.ts': `import { invoice } from './invoice.js';\n\nexport function withTax(total: number): string {\n${lines('tax', 20)}\n  return invoice(total * 1.2);\n}\n`,
  'README.md': '# demo-shop\n',
};

const IDENTITY = {
  GIT_AUTHOR_NAME: 'Demo Agent',
  GIT_AUTHOR_EMAIL: 'agent@demo.invalid',
  GIT_COMMITTER_NAME: 'Demo Agent',
  GIT_COMMITTER_EMAIL: 'agent@demo.invalid',
  // The demo must not read the user's global git config (signing, hooksPath, aliases...).
  GIT_CONFIG_NOSYSTEM: '1',
};

const CLI = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'airspace-hooks.js');

export async function writeTree(root: string, files: Readonly<Record<string, string>>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
}

export function demoGit(
  repo: DemoRepo | { env: Readonly<Record<string, string>> },
  cwd: string,
  args: readonly string[],
  okCodes: readonly number[] = [],
): Promise<GitResult> {
  // The demo's commits and pushes are the user's own: they run the hooks being demonstrated.
  return runGit(args, { cwd, env: repo.env, okCodes, userHooks: true });
}

export async function buildDemoRepo(root: string): Promise<DemoRepo> {
  const bin = join(root, 'bin');
  await mkdir(bin, { recursive: true });
  await symlink(CLI, join(bin, 'airspace-hooks'));
  await chmod(CLI, 0o755).catch(() => undefined);
  const globalConfig = join(root, 'gitconfig');
  // No automatic housekeeping in repositories that live a minute: every commit and fetch of the story
  // would start `git maintenance run --auto` or `git gc --auto`, and every push a `git gc --auto` in
  // the remote (27 git processes per demo).
  await writeFile(
    globalConfig,
    '[init]\n\tdefaultBranch = main\n[advice]\n\tdetachedHead = false\n[gc]\n\tauto = 0\n[maintenance]\n\tauto = false\n[receive]\n\tautogc = false\n',
  );
  const env = {
    ...IDENTITY,
    GIT_CONFIG_GLOBAL: globalConfig,
    PATH: `${bin}:${process.env.PATH ?? ''}`,
    AIRSPACE_HOOKS: '1',
    AIRSPACE_HOOKS_BUDGET_MS: '120000',
    // Every check builds the import graph itself: no detached `graph build` behind each hook (six
    // per demo, racing the story for the CPU), and no check that skips the graph because one of
    // them is still running, so the story scores the same every time it is played.
    AIRSPACE_GRAPH_BACKGROUND: 'off',
  };
  const ctx = { env };

  const remote = join(root, 'airspace.git');
  await runGit(['init', '-q', '--bare', '-b', 'main', remote], { cwd: root, env });
  // The first commit straight into the remote: one process instead of a scratch clone's init, add,
  // commit and push (and the push's receive-pack and unpack-objects).
  await runGit(['fast-import', '--quiet', '--done'], { cwd: remote, env, input: initialImport(DEMO_FILES, Date.now()) });

  const team = join(root, 'team');
  await runGit(['clone', '-q', remote, team], { cwd: root, env });
  const agents = {
    ada: { name: 'ada', branch: 'ada/auth-timeout', path: join(root, 'ada') },
    cy: { name: 'cy', branch: 'cy/session-cache', path: join(root, 'cy') },
    bob: { name: 'bob', branch: 'bob/billing-tax', path: join(root, 'bob') },
    dana: { name: 'dana', branch: 'dana/api-retry', path: join(root, 'dana') },
  };
  for (const agent of [agents.ada, agents.cy, agents.bob]) {
    await demoGit(ctx, team, ['worktree', 'add', '-q', '-b', agent.branch, agent.path, 'origin/main']);
  }
  // dana is a human on another machine: her own clone, seen by the agents only through the remote.
  await runGit(['clone', '-q', remote, agents.dana.path], { cwd: root, env });
  await demoGit(ctx, agents.dana.path, ['switch', '-q', '-c', agents.dana.branch]);
  return { root, remote, agents, env };
}

/**
 * A `git fast-import` stream of one commit on main holding `files` (regular files, mode 100644),
 * by the demo's identity at `now`: the same tree and message `git add -A && git commit` gave.
 */
export function initialImport(files: Readonly<Record<string, string>>, now: number): string {
  const data = (text: string) => `data ${Buffer.byteLength(text)}\n${text}\n`;
  const who = `${IDENTITY.GIT_AUTHOR_NAME} <${IDENTITY.GIT_AUTHOR_EMAIL}> ${Math.floor(now / 1000)} +0000`;
  const entries = Object.entries(files).map(([path, content]) => `M 100644 inline ${path}\n${data(content)}`);
  return `commit refs/heads/main\nauthor ${who}\ncommitter ${who}\n${data('demo-shop: initial import\n')}${entries.join('')}done\n`;
}

/** Runs our own CLI as a user would (a separate process), capturing its output and exit code. */
export function runCliProcess(repo: DemoRepo, cwd: string, args: readonly string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env: { ...process.env, ...repo.env, NO_COLOR: '1' } });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (output += c.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}
