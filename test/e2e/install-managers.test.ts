import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir } from '../helpers/temp-repo.js';
import { airspace, installPackage, snapshotDir, userRepo, type InstalledPackage, type UserRepo } from './install-kit.js';

/**
 * Repositories whose hooks belong to lefthook, pre-commit (python) or simple-git-hooks: install
 * never edits their files nor .git/hooks (the manager would overwrite us); it prints the exact
 * snippet to add and exits 0. Once the snippet is in, install says there is nothing to do.
 */
let user: UserRepo;
let pkg: InstalledPackage;
let hooksDir: string;
let before: Record<string, string>;

beforeAll(() => {
  user = userRepo();
  pkg = installPackage(user.repo);
  hooksDir = join(user.repo, '.git', 'hooks');
  before = snapshotDir(hooksDir);
}, 240_000);

afterAll(() => removeDir(user.root));

/** Our CLI as the managers' hooks run it: the main worktree's bin, found from any worktree (src/install/manager-snippets.ts). */
const MAIN = '"$(git rev-parse --path-format=absolute --git-common-dir)"/../node_modules/.bin/airspace-hooks';

const CASES = [
  {
    manager: 'lefthook',
    file: 'lefthook.yml',
    content: 'pre-commit:\n  commands:\n    lint:\n      run: npm run lint\n',
    expect: `run: '${MAIN} hook pre-push {1} {2}'`,
  },
  { manager: 'pre-commit', file: '.pre-commit-config.yaml', content: 'repos: []\n', expect: 'stages: [pre-push]' },
  {
    manager: 'simple-git-hooks',
    file: '.simple-git-hooks.json',
    content: '{ "pre-commit": "npm run lint" }\n',
    expect: `"pre-push": ${JSON.stringify(`${MAIN} hook pre-push "$1" "$2"`)}`,
  },
] as const;

describe.each(CASES)('a repository using $manager', ({ manager, file, content, expect: snippetLine }) => {
  it('gets the snippet, exit 0, and no file changes', () => {
    const path = join(user.repo, file);
    writeFileSync(path, content);
    try {
      const result = airspace(pkg, user.repo, ['install']);
      expect(result.status, result.stderr).toBe(0);
      expect(result.stdout).toContain(`uses ${manager}`);
      expect(result.stdout).toContain(`Add this to ${file}`);
      expect(result.stdout).toContain(snippetLine);
      expect(readFileSync(path, 'utf8')).toBe(content);
      expect(snapshotDir(hooksDir)).toEqual(before);
      // With the snippet in place, install recognises it.
      writeFileSync(path, `${content}# airspace-hooks hook pre-commit\n`);
      expect(airspace(pkg, user.repo, ['install']).stdout).toContain('nothing to do');
    } finally {
      rmSync(path);
    }
  });
});
