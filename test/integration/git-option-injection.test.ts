import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diffWorkingSet, changedPaths } from '../../src/git/diff-working-set.js';
import { fetchTraffic } from '../../src/git/fetch-traffic.js';
import { lastCommitTimes } from '../../src/git/last-edit-times.js';
import { listRefs } from '../../src/git/list-refs.js';
import { mergeBase } from '../../src/git/merge-base.js';
import { mergeTreeChannel } from '../../src/git/merge-tree-channel.js';
import { commitTime, firstParent, hasCommit } from '../../src/git/commit-time.js';
import { listTreeFiles } from '../../src/graph/list-tree-files.js';
import { resolveExplicitAgents } from '../../src/traffic/discover-explicit-agents.js';
import { commitAll, gitIn, pathWithCli, remoteWithClones, removeDir, runCli, testEnv, writeFiles } from '../helpers/temp-repo.js';

/**
 * Option injection (issue 15, item 1): every value from outside that reaches git's argv — the
 * committed config's `remote`/`trunk`, `--agent NAME=REV`, revisions — is refused when git could
 * read it as an option, and the adapters put `--end-of-options` before revisions. The attack: a
 * committed `.airspacerc.json` of `{"remote":"--upload-pack=touch PWNED"}` made `check --fetch`
 * and the pre-push hook run the command.
 */
const PATH = pathWithCli();
let root: string;
let clone: string;
let other: string;

const ATTACK = '--upload-pack=touch PWNED';

beforeAll(() => {
  const setup = remoteWithClones({ 'src/a.ts': 'export const a = 1;\n', 'README.md': '# x\n' }, 2);
  root = setup.root;
  [clone, other] = setup.clones as [string, string];
});

afterAll(() => removeDir(root));

/** Every file named PWNED anywhere under the test root (the command runs in git's cwd). */
function pwned(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'PWNED' || entry.name.startsWith('pwned-')) found.push(join(dir, entry.name));
      else if (entry.isDirectory()) walk(join(dir, entry.name));
    }
  };
  walk(root);
  return found;
}

describe('a hostile committed config', () => {
  it('check --fetch refuses the option-like remote with one line (exit 2) and runs nothing', () => {
    writeFiles(clone, { '.airspacerc.json': JSON.stringify({ remote: ATTACK }) });
    const result = runCli(clone, ['check', '--fetch']);
    expect(pwned()).toEqual([]);
    expect(result.status).toBe(2);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('"remote" must be a remote name');
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('the real pre-push hook does not run the command either', () => {
    const install = runCli(other, ['install', '--force'], { PATH });
    expect(install.status, install.stderr + install.stdout).toBe(0);
    gitIn(other, 'switch', '-q', '-c', 'feature/x');
    writeFiles(other, { '.airspacerc.json': JSON.stringify({ remote: ATTACK }), 'src/a.ts': 'export const a = 2;\n' });
    commitAll(other, 'hostile config');
    const push = spawnSync('git', ['push', 'origin', 'HEAD'], { cwd: other, env: testEnv({ PATH }), encoding: 'utf8', timeout: 120_000 });
    expect(pwned()).toEqual([]);
    expect(push.stderr).toContain('"remote" must be a remote name');
  });

  it('an option-like trunk is refused the same way', () => {
    writeFiles(clone, { '.airspacerc.json': JSON.stringify({ trunk: '--output=pwned-trunk' }) });
    const result = runCli(clone, ['check']);
    expect(result.status).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('"trunk" must be a branch or ref name');
    expect(pwned()).toEqual([]);
  });
});

describe('command-line values', () => {
  beforeAll(() => writeFiles(clone, { '.airspacerc.json': '{}\n' }));

  it('scan --agent NAME=REV refuses an option-like revision (exit 2, one line)', () => {
    const result = runCli(clone, ['scan', '--agent', 'a=HEAD', '--agent', 'b=--output=pwned-agent']);
    expect(result.status).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('refused "--output=pwned-agent" from --agent');
    expect(pwned()).toEqual([]);
  });

  it('a revision of two lines is refused, not sent as two stdin requests', async () => {
    await expect(resolveExplicitAgents(clone, ['a=HEAD', 'b=main\nHEAD'])).rejects.toMatchObject({ kind: 'usage', code: 'unsafe-argument' });
    // The plain form still resolves.
    const ok = await resolveExplicitAgents(clone, ['a=HEAD']);
    expect(ok.agents.map((agent) => agent.id)).toEqual(['a']);
  });

  it('an option-like agent name is refused', async () => {
    await expect(resolveExplicitAgents(clone, ['--all=HEAD'])).rejects.toMatchObject({ code: 'unsafe-argument' });
  });
});

describe('each git adapter that takes a remote or a revision', () => {
  it('fetchTraffic refuses an option-like remote itself (not only through the config)', async () => {
    await expect(fetchTraffic(clone, ATTACK, { timeoutMs: 10_000, commonDir: join(clone, '.git') })).rejects.toMatchObject({ code: 'unsafe-argument' });
    expect(pwned()).toEqual([]);
    // A plain remote still fetches.
    expect((await fetchTraffic(clone, 'origin', { timeoutMs: 30_000, commonDir: join(clone, '.git') })).ok).toBe(true);
  });

  it('listRefs refuses a remote that is not a plain remote name', async () => {
    await expect(listRefs(clone, '--all')).rejects.toMatchObject({ code: 'unsafe-argument' });
    await expect(listRefs(clone, 'a b')).rejects.toMatchObject({ code: 'unsafe-argument' });
    expect((await listRefs(clone, 'origin')).hasRemote).toBe(true);
  });

  // `--output=<file>` is an option of diff-tree and log: without `--end-of-options` these calls
  // would create the file. With it, git reads the value as a revision and fails to find it.
  const output = () => join(clone, 'pwned-output');

  it('diffWorkingSet and changedPaths read an option-like revision as a revision', async () => {
    await expect(diffWorkingSet(clone, `--output=${output()}`, 'HEAD')).rejects.toMatchObject({ code: 'git-failed' });
    await expect(changedPaths(clone, `--output=${output()}`, 'HEAD')).rejects.toMatchObject({ code: 'git-failed' });
    expect(existsSync(output())).toBe(false);
  });

  it('lastCommitTimes reads an option-like tip as a revision', async () => {
    await expect(lastCommitTimes(clone, null, `--output=${output()}`)).rejects.toMatchObject({ code: 'git-failed' });
    expect(existsSync(output())).toBe(false);
  });

  it('mergeBase, mergeTreeChannel, listTreeFiles, commitTime, hasCommit and firstParent never take an option', async () => {
    // `git merge-base --all HEAD` would answer (HEAD itself): with --end-of-options it is no revision.
    expect((await mergeBase(clone, '--all', 'HEAD')).base).toBeNull();
    expect((await mergeTreeChannel(clone, '--allow-unrelated-histories', 'HEAD')).value).toBeNull();
    await expect(listTreeFiles(clone, '--name-only')).rejects.toMatchObject({ code: 'git-failed' });
    expect(await commitTime(clone, '--all')).toBeNull();
    expect(await hasCommit(clone, '--all')).toBe(false);
    // `rev-parse --verify --all^1` would not be a revision either; with --end-of-options git says so.
    expect(await firstParent(clone, '--all')).toBeNull();
    expect(existsSync(output())).toBe(false);
  });
});
