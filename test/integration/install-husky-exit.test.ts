import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { inspectInstallation, install } from '../../src/install/index.js';
import { gitIn, initRepo, PROJECT_ROOT, removeDir, testEnv } from '../helpers/temp-repo.js';

/**
 * Our block is appended to the user's husky script. A script that ends with a top-level `exit`
 * never reaches it: the hooks look installed and silently check nothing. `doctor` must say so.
 */
const repo = initRepo({ 'package.json': '{ "name": "user-project", "private": true }\n' });
afterAll(() => removeDir(repo));

describe('husky script that exits before our block', () => {
  it('is reported by the installation inspection as an error with the fix', async () => {
    const husky = spawnSync(process.execPath, [join(PROJECT_ROOT, 'node_modules', 'husky', 'bin.js')], { cwd: repo, env: testEnv(), encoding: 'utf8' });
    expect(husky.status, husky.stderr).toBe(0);
    writeFileSync(join(repo, '.husky', 'pre-commit'), 'npm run lint\nexit 0\n');
    gitIn(repo, 'add', '.husky/pre-commit');
    const result = await install(repo, { ci: false });
    expect(result.strategy).toBe('husky');
    const findings = await inspectInstallation(repo, testEnv());
    expect(findings).toContainEqual(expect.objectContaining({ level: 'error', code: 'husky-block-unreachable', hook: 'pre-commit' }));
    // pre-push was created by install and has no early exit.
    expect(findings.filter((f) => f.code === 'husky-block-unreachable')).toHaveLength(1);
  });
});
