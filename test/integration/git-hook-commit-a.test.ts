import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT, commitAll, gitIn, initRepo, removeDir, sh, tempDir, writeFiles } from '../helpers/temp-repo.js';

/**
 * A real `git commit -a` running a real pre-commit hook that calls collectAirspace (and the merge channel) with
 * inheritRepoEnv: git exports GIT_INDEX_FILE (the index it is building) and GIT_DIR to the hook.
 * The library is bundled with esbuild so the hook can run it with plain node.
 */
let work = '';
let bundle = '';

beforeAll(async () => {
  work = tempDir();
  bundle = join(work, 'collect.mjs');
  await build({
    stdin: {
      contents: "export { collectAirspace } from './src/traffic/collect-airspace.ts'; export { mergeChannels } from './src/channels/merge-channel.ts';",
      resolveDir: PROJECT_ROOT,
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: bundle,
    logLevel: 'silent',
  });
});
afterAll(() => removeDir(work));

const hookScript = (out: string): string => `#!/bin/sh
exec "${process.execPath}" --input-type=module -e '
import { writeFileSync } from "node:fs";
import { collectAirspace, mergeChannels } from "${bundle}";
const scan = await collectAirspace(process.cwd(), { remote: "origin", include: [], exclude: [], maxAgeDays: 30, ignore: () => false, inheritRepoEnv: true, agents: ["peer=peer"] });
const pairs = await mergeChannels(scan.pairs, { cwd: scan.toplevel, ignore: () => false, concurrency: 4 });
writeFileSync("${out}", JSON.stringify({ indexFile: process.env.GIT_INDEX_FILE ?? null, ownship: scan.ownship, pair: pairs[0] ?? null, unknown: scan.unknown }));
'
`;

describe('inside a real pre-commit hook', () => {
  it('`git commit -a` reads the index git is building, blocks nothing, and the commit is what the user asked for', () => {
    const dir = initRepo({ 'a.txt': 'one\ntwo\nthree\n', 'b.txt': 'b\n' });
    gitIn(dir, 'branch', 'peer');
    gitIn(dir, 'switch', '-q', 'peer');
    writeFiles(dir, { 'a.txt': 'one\nTWO (peer)\nthree\n' });
    commitAll(dir, 'peer edits line 2');
    gitIn(dir, 'switch', '-q', 'main');
    const out = join(work, 'hook-output.json');
    const hook = join(dir, '.git', 'hooks', 'pre-commit');
    writeFileSync(hook, hookScript(out));
    chmodSync(hook, 0o755);

    writeFiles(dir, { 'a.txt': 'one\ntwo (mine)\nthree\n', 'untracked.txt': 'not in the commit\n' });
    sh(dir, 'git', ['commit', '-q', '-a', '-m', 'mine']);

    const seen = JSON.parse(readFileSync(out, 'utf8'));
    expect(seen.indexFile).toMatch(/index\.lock$/);
    expect(seen.ownship.id).toBe('main');
    expect(seen.unknown).toEqual([]);
    expect(seen.pair.workingSetA.files).toEqual(
      expect.arrayContaining([expect.objectContaining({ file: 'a.txt', ranges: [[2, 3]] }), expect.objectContaining({ file: 'untracked.txt', whole: true })]),
    );
    expect(seen.pair.merge).toEqual({ value: 1, conflictedPaths: ['a.txt'] });
    // The commit holds exactly `-a` (tracked changes), the untracked file is still untracked.
    expect(gitIn(dir, 'show', '--name-only', '--format=', 'HEAD')).toBe('a.txt');
    expect(gitIn(dir, 'status', '--porcelain')).toBe('?? untracked.txt');
    removeDir(dir);
  });
});
