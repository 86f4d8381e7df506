import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { symbolChannel } from '../../src/symbols/symbol-channel.js';
import { commitAll, gitIn, initRepo, removeDir, runCli, writeFiles } from '../helpers/temp-repo.js';
import { SESSION, SESSION_WITHOUT_CREATE } from '../helpers/session-module.js';
import type { ReportLink } from '../../src/report/check-report.js';

/**
 * The symbol channel in a real repository with worktrees: bob's uncommitted new code calls three
 * functions. ada (a commit on her branch) removed one of them, cy (uncommitted) added a required
 * parameter to another, dee (uncommitted) changed only a body. Git merges every pair cleanly.
 */
const USERS = ['export function listUsers(filter: string): string[] {', '  return [filter];', '}', ''].join('\n');

let main: string;
const trees: Record<string, string> = {};

beforeAll(() => {
  main = initRepo({
    'src/auth/session.ts': SESSION,
    'src/auth/index.ts': "export * from './session';\n",
    'src/users/list.ts': USERS,
    'src/app.ts': "import { createSession } from './auth';\nexport const s = createSession('root');\n",
  });
  for (const name of ['ada', 'bob', 'cy', 'dee', 'eve']) {
    trees[name] = join(main, '..', `${main.split('/').pop()}-${name}`);
    gitIn(main, 'worktree', 'add', '-q', '-b', name, trees[name]!);
  }
  writeFiles(trees.ada!, {
    'src/auth/session.ts': SESSION_WITHOUT_CREATE,
    'src/app.ts': 'export const s = null;\n',
  });
  commitAll(trees.ada!, 'drop createSession');
  writeFiles(trees.cy!, { 'src/users/list.ts': USERS.replace('listUsers(filter: string)', 'listUsers(filter: string, page: number)') });
  writeFiles(trees.dee!, { 'src/auth/session.ts': SESSION.replace('return user.trim();', 'return user.trim().toLowerCase();') });
  writeFiles(trees.bob!, {
    'src/api/admin.ts': [
      "import { createSession, formatUser } from '../auth';",
      "import { listUsers } from '../users/list';",
      '',
      "export const admin = createSession(formatUser('admin'));",
      "export const users = listUsers('a');",
      '',
    ].join('\n'),
  });
});

afterAll(() => {
  for (const dir of [...Object.values(trees), main]) removeDir(dir);
});

const linkWith = (report: { links: ReportLink[] }, peer: string): ReportLink => report.links.find((l) => l.a === peer || l.b === peer)!;

describe('symbol collisions between worktrees', () => {
  it('removed export used by new uncommitted code → RA with evidence; signature change → TA; body only → clear', () => {
    const result = runCli(trees.bob!, ['check', '--json']);
    const report = JSON.parse(result.stdout);

    const ada = linkWith(report, 'ada');
    expect(ada.level).toBe('RA');
    expect(ada.channels.symbol).toBe(1);
    expect(ada.evidence).toContainEqual({
      channel: 'symbol',
      text: "ada removed `createSession` (src/auth/session.ts:1); bob's new code in src/api/admin.ts:4 calls it with 1 argument",
    });
    expect(ada.symbols).toEqual([
      {
        symbol: 'createSession',
        change: 'removed',
        details: [],
        changedBy: 'ada',
        usedBy: 'bob',
        declaration: { file: 'src/auth/session.ts', line: 1 },
        use: { file: 'src/api/admin.ts', line: 4 },
        args: 1,
      },
    ]);

    const cy = linkWith(report, 'cy');
    expect(cy.level).toBe('TA');
    expect(cy.evidence ?? []).toEqual([]);
    expect(cy.symbols).toEqual([
      expect.objectContaining({
        symbol: 'listUsers',
        change: 'signature',
        details: ['1 → 2 required parameters'],
        declaration: { file: 'src/users/list.ts', line: 1 },
        use: { file: 'src/api/admin.ts', line: 5 },
        args: 1,
        callMismatch: true,
      }),
    ]);

    const dee = linkWith(report, 'dee');
    expect(dee.level).toBe('clear');
    expect(dee.channels.symbol).toBe(0);
    expect(dee.symbols).toBeUndefined();
  });

  it('the text report says who changed what, where, and where the new code uses it', () => {
    const result = runCli(trees.bob!, ['check']);
    const text = result.stdout + result.stderr;
    expect(text).toContain("evidence: ada removed `createSession` (src/auth/session.ts:1); bob's new code in src/api/admin.ts:4 calls it with 1 argument");
    expect(text.match(/removed `createSession`/g)).toHaveLength(1);
    expect(text).toContain(
      'cy changed the signature of `listUsers` (src/users/list.ts:1, 1 → 2 required parameters); your new code in src/api/admin.ts:5 calls it with 1 argument',
    );
  });

  it('scan of a few agents sees the removed export used across files that share no path', () => {
    // ada and bob touch different files: only the symbol channel links them. A scan of a handful of
    // agents checks every pair (src/run/run-airspace.ts), so the pair is listed with its evidence.
    const report = JSON.parse(runCli(main, ['scan', '--json']).stdout);
    const link = report.links.find((l: ReportLink) => [l.a, l.b].sort().join() === 'ada,bob');
    expect(link?.level).toBe('RA');
    expect(link?.evidence?.map((e: { channel: string }) => e.channel)).toContain('symbol');
    expect(report.scanned.skipped.join('\n')).not.toMatch(/symbol channel: .* not parsed/);
  });

  it('symbols.signatureChange "block" makes a used signature change evidence (RA)', () => {
    writeFiles(trees.bob!, { '.airspacerc.json': JSON.stringify({ symbols: { signatureChange: 'block' } }) });
    try {
      const report = JSON.parse(runCli(trees.bob!, ['check', '--json']).stdout);
      const cy = linkWith(report, 'cy');
      expect(cy.level).toBe('RA');
      expect(cy.evidence?.map((e) => e.channel)).toContain('symbol');
    } finally {
      removeDir(join(trees.bob!, '.airspacerc.json'));
    }
  });
});

describe('symbolChannel on two commits (the beacon path: the parent of a beacon commit holds the work of the peer)', () => {
  it('finds the collision from the commits alone, in both directions, and stops on an aborted signal', async () => {
    writeFiles(trees.eve!, { 'src/api/report.ts': "import * as auth from '../auth/session';\nexport const r = auth.createSession('x');\n" });
    const eve = commitAll(trees.eve!, 'report uses createSession');
    const ada = gitIn(main, 'rev-parse', 'ada');
    const base = gitIn(main, 'rev-parse', 'main');
    const result = await symbolChannel(main, base, eve, ada, { ids: { a: 'eve', b: 'ada' } });
    expect(result.value).toBe(1);
    expect(result.collisions).toEqual([
      {
        symbol: 'createSession',
        change: 'removed',
        details: [],
        changedBy: 'ada',
        usedBy: 'eve',
        declaration: { file: 'src/auth/session.ts', line: 1 },
        use: { file: 'src/api/report.ts', line: 2 },
        args: 1,
      },
    ]);
    expect(result.evidence).toBe("ada removed `createSession` (src/auth/session.ts:1); eve's new code in src/api/report.ts:2 calls it with 1 argument");
    const reversed = await symbolChannel(main, base, ada, eve, { ids: { a: 'ada', b: 'eve' } });
    expect(reversed.collisions).toEqual(result.collisions);
    await expect(symbolChannel(main, base, eve, ada, { signal: AbortSignal.abort() })).rejects.toThrow();
  });

  it('follows a namespace re-export: `util.clone()` after `import { util } from "./core"` (`export * as util from`)', async () => {
    const repo = initRepo({
      'src/util.ts': 'export function clone<T>(value: T): T {\n  return value;\n}\nexport const keep = 1;\n',
      'src/core.ts': "export * as util from './util.js';\n",
      'src/app.ts': 'export const app = 1;\n',
    });
    try {
      const base = gitIn(repo, 'rev-parse', 'HEAD');
      gitIn(repo, 'switch', '-q', '-c', 'changer');
      writeFiles(repo, { 'src/util.ts': 'export const keep = 1;\n' });
      const changer = commitAll(repo, 'drop clone');
      gitIn(repo, 'switch', '-q', '-c', 'user', base);
      writeFiles(repo, { 'src/app.ts': "import { util } from './core.js';\nexport const app = util.clone(1);\n" });
      const user = commitAll(repo, 'app clones');
      const result = await symbolChannel(repo, base, changer, user, { ids: { a: 'changer', b: 'user' } });
      expect(result.value).toBe(1);
      expect(result.collisions).toEqual([
        expect.objectContaining({ symbol: 'clone', change: 'removed', declaration: { file: 'src/util.ts', line: 1 }, use: { file: 'src/app.ts', line: 2 } }),
      ]);
    } finally {
      removeDir(repo);
    }
  });
});
