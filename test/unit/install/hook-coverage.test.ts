import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { coverageOfHooksDir } from '../../../src/install/hook-coverage.js';
import { BLOCK_END, BLOCK_START } from '../../../src/install/husky-block.js';
import { shimText } from '../../../src/install/package-files.js';
import { removeDir, tempDir } from '../../helpers/temp-repo.js';

/**
 * Which pre-push hooks run airspace-hooks, read from the files git would run (no git here: the
 * hooksPath is given as `git config` would report it). Real files in a temp dir.
 */
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(removeDir));

interface Layout {
  readonly worktree: string;
  readonly commonDir: string;
  /** A PATH holding an executable `airspace-hooks`, as `npm i -g` would. */
  readonly withCli: NodeJS.ProcessEnv;
  readonly noCli: NodeJS.ProcessEnv;
}

function layout(files: Record<string, string>): Layout {
  const root = tempDir('airspace-coverage-');
  dirs.push(root);
  const worktree = join(root, 'wt');
  for (const [path, text] of Object.entries({ ...files, 'bin/airspace-hooks': '#!/bin/sh\n' })) {
    const full = join(root, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, text);
    chmodSync(full, 0o755);
  }
  mkdirSync(worktree, { recursive: true });
  return { worktree, commonDir: join(root, 'wt', '.git'), withCli: { PATH: join(root, 'bin') }, noCli: { PATH: join(root, 'none') } };
}

const at = (value: string, scope = 'worktree') => ({ value, scope, origin: 'file:x' });

describe('coverageOfHooksDir', () => {
  it('our shim where git looks is protected; without a CLI to call it lets everything through', () => {
    const l = layout({ 'wt/.git/hooks/pre-push': shimText('pre-push') });
    expect(coverageOfHooksDir(l.worktree, l.commonDir, null, l.withCli)).toEqual({ protected: true, hooksDir: join(l.commonDir, 'hooks') });
    expect(coverageOfHooksDir(l.worktree, l.commonDir, null, l.noCli)).toMatchObject({ protected: false, reason: 'cli-missing' });
  });

  it('nothing installed, a hooksPath elsewhere (relative to the worktree), a foreign hook, a hook git skips', () => {
    const l = layout({ 'wt/.harness/pre-push': '#!/bin/sh\nexit 0\n', 'wt/.git/hooks/pre-push': shimText('pre-push') });
    const empty = layout({});
    expect(coverageOfHooksDir(empty.worktree, empty.commonDir, null, empty.withCli)).toMatchObject({ protected: false, reason: 'nothing-installed' });
    expect(coverageOfHooksDir(l.worktree, l.commonDir, at('.empty'), l.withCli)).toMatchObject({
      protected: false,
      reason: 'hooks-path-elsewhere',
      hooksDir: join(l.worktree, '.empty'),
      hooksPath: { value: '.empty', scope: 'worktree' },
    });
    expect(coverageOfHooksDir(l.worktree, l.commonDir, at('.harness'), l.withCli)).toMatchObject({ protected: false, reason: 'foreign-hook' });
    chmodSync(join(l.worktree, '.harness', 'pre-push'), 0o644);
    expect(coverageOfHooksDir(l.worktree, l.commonDir, at('.harness'), l.withCli)).toMatchObject({ protected: false, reason: 'hook-not-executable' });
  });

  it('husky 9 runs .husky/pre-push: protected only with our block there, reachable; its runtime missing runs nothing', () => {
    const block = `${BLOCK_START}\nairspace-hooks hook pre-push "$1" "$2"\n${BLOCK_END}\n`;
    const husky = (script: string) =>
      layout({ 'wt/.husky/_/pre-push': '#!/bin/sh\n. "$(dirname "$0")/h"\n', 'wt/.husky/_/h': '#!/bin/sh\n', 'wt/.husky/pre-push': script });
    const ours = husky(`npm test\n${block}`);
    expect(coverageOfHooksDir(ours.worktree, ours.commonDir, at('.husky/_', 'local'), ours.withCli)).toMatchObject({ protected: true });
    const theirs = husky('npm test\n');
    expect(coverageOfHooksDir(theirs.worktree, theirs.commonDir, at('.husky/_', 'local'), theirs.withCli)).toMatchObject({ reason: 'husky-without-airspace' });
    const early = husky(`exit 0\n${block}`);
    expect(coverageOfHooksDir(early.worktree, early.commonDir, at('.husky/_', 'local'), early.withCli)).toMatchObject({ reason: 'block-unreachable' });
    const fresh = layout({ 'wt/.husky/pre-push': block });
    expect(coverageOfHooksDir(fresh.worktree, fresh.commonDir, at('.husky/_', 'local'), fresh.withCli)).toMatchObject({ reason: 'husky-runtime-missing' });
  });

  it('simple-git-hooks writes our command into the hook; lefthook runs us only when its config calls us', () => {
    const sgh = layout({ 'wt/.git/hooks/pre-push': '#!/bin/sh\nnpx airspace-hooks hook pre-push "$1" "$2"\n' });
    expect(coverageOfHooksDir(sgh.worktree, sgh.commonDir, null, sgh.withCli)).toMatchObject({ protected: true });
    const lefthookHook = '#!/bin/sh\ncall_lefthook run "pre-push" "$@"\n';
    const on = layout({
      'wt/.git/hooks/pre-push': lefthookHook,
      'wt/lefthook.yml': 'pre-push:\n  commands:\n    airspace:\n      run: npx airspace-hooks hook pre-push\n',
    });
    expect(coverageOfHooksDir(on.worktree, on.commonDir, null, on.withCli)).toMatchObject({ protected: true });
    const off = layout({ 'wt/.git/hooks/pre-push': lefthookHook, 'wt/lefthook.yml': 'pre-push:\n  commands:\n    test:\n      run: npm test\n' });
    expect(coverageOfHooksDir(off.worktree, off.commonDir, null, off.withCli)).toMatchObject({ protected: false, reason: 'manager-without-airspace' });
  });
});
