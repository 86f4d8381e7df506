import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitAll, gitIn, initRepo, removeDir, runCli, tempDir, writeFiles } from '../helpers/temp-repo.js';

/**
 * `radar --out` as a user runs it: two worktrees editing the same lines of one file, a third
 * elsewhere, the page written from the first. The page must know which agent is "you".
 */
let repo: string;
let root: string;

const GENERAL = Array.from({ length: 40 }, (_, i) => `export const value${i} = ${i}\n`).join('');

beforeAll(() => {
  root = tempDir();
  repo = initRepo({ 'packages/shared/src/general.ts': GENERAL, 'packages/runtime-core/src/renderer.ts': 'export const render = 1\n' }, join(root, 'core'));
  for (const [branch, line] of [
    ['fix/shared-general', 'export const value10 = "a"\n'],
    ['feat/general-helpers', 'export const value10 = "b"\n'],
  ] as const) {
    const worktree = join(root, branch.replace('/', '-'));
    gitIn(repo, 'worktree', 'add', '-q', '-b', branch, worktree);
    writeFiles(worktree, { 'packages/shared/src/general.ts': GENERAL.replace('export const value10 = 10\n', line) });
    commitAll(worktree, `edit general.ts on ${branch}`);
  }
  const elsewhere = join(root, 'renderer');
  gitIn(repo, 'worktree', 'add', '-q', '-b', 'fix/runtime-renderer', elsewhere);
  writeFiles(elsewhere, { 'packages/runtime-core/src/renderer.ts': 'export const render = 2\n' });
});

afterAll(() => removeDir(root));

describe('radar --out', () => {
  it('writes a page that names the ownship and holds the RA of the two worktrees on general.ts with its shared file', () => {
    const ownshipWorktree = join(root, 'fix-shared-general');
    const result = runCli(ownshipWorktree, ['radar', '--out', 'radar.html']);
    expect(result.status, result.stderr).toBe(0);
    const html = readFileSync(join(ownshipWorktree, 'radar.html'), 'utf8');
    const block = /<script type="application\/json" id="airspace-radar-data">([\s\S]*?)<\/script>/.exec(html)?.[1];
    const data = JSON.parse(block ?? 'null') as {
      frames: {
        ownship: string | null;
        scan: { positions: Record<string, unknown>; links: { a: string; b: string; level: string; sharedFiles: { path: string }[] }[] };
      }[];
    };
    const [frame] = data.frames;
    expect(frame!.ownship).toBe('fix/shared-general');
    expect(Object.keys(frame!.scan.positions)).toEqual(expect.arrayContaining(['fix/shared-general', 'feat/general-helpers', 'fix/runtime-renderer']));
    const pair = frame!.scan.links.find((l) => [l.a, l.b].sort().join(' ') === 'feat/general-helpers fix/shared-general');
    expect(pair?.level).toBe('RA');
    expect(pair?.sharedFiles.map((f) => f.path)).toEqual(['packages/shared/src/general.ts']);
  });
});
