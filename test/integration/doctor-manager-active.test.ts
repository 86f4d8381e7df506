import { writeFileSync, chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { initRepo, runCli } from '../helpers/temp-repo.js';

/**
 * A hook manager that runs airspace-hooks in its config but has not written git's hooks yet (a
 * fresh clone before `npm install`): git runs no hook, so doctor says FAIL, as it does for
 * core.hooksPath — not "ok" with exit 0 (issue 28, item 2).
 */
const RUN = 'npx --no-install airspace-hooks hook';
const pkg = JSON.stringify({
  name: 'x',
  devDependencies: { 'simple-git-hooks': '2.11.1' },
  'simple-git-hooks': { 'pre-commit': `${RUN} pre-commit`, 'pre-push': `${RUN} pre-push "$1" "$2"` },
});

interface Doctor {
  installation: { code: string; level: string }[];
}

describe('doctor and a hook manager', () => {
  it('configured but not active: FAIL with the manager command that writes the hooks; active: ok', () => {
    const dir = initRepo({ 'package.json': pkg });
    const before = runCli(dir, ['doctor', '--json']);
    expect(before.status).toBe(2);
    expect((JSON.parse(before.stdout) as Doctor).installation).toContainEqual(expect.objectContaining({ code: 'manager-not-active', level: 'error' }));
    expect(runCli(dir, ['doctor']).stdout).toContain('run npx --no-install simple-git-hooks');

    // What `npx simple-git-hooks` writes: the command itself in each hook.
    mkdirSync(join(dir, '.git', 'hooks'), { recursive: true });
    for (const hook of ['pre-commit', 'pre-push']) {
      const path = join(dir, '.git', 'hooks', hook);
      writeFileSync(path, `#!/bin/sh\n${RUN} ${hook}${hook === 'pre-push' ? ' "$1" "$2"' : ''}\n`);
      chmodSync(path, 0o755);
    }
    const after = JSON.parse(runCli(dir, ['doctor', '--json']).stdout) as Doctor;
    expect(after.installation).toContainEqual(expect.objectContaining({ code: 'manager-configured', level: 'ok' }));
  });
});
