import { afterAll, describe, expect, it } from 'vitest';
import { renderReadyPreCommit } from '../../src/app/ready-answer.js';
import { liveSensing } from '../../src/run/sensing.js';
import { gitIn, remoteWithClones, removeDir, writeFiles } from '../helpers/temp-repo.js';

/**
 * The resident's rendering of a pre-commit (src/app/ready-answer.ts) reads only: a configuration
 * under which the hook itself would publish a beacon renders nothing, and touches no remote.
 */
const cleanup: string[] = [];
afterAll(() => {
  for (const dir of cleanup) removeDir(dir);
});

describe('a rendered pre-commit', () => {
  it('is refused, and publishes nothing, when the pre-commit would publish a beacon', async () => {
    const { root, clones } = remoteWithClones({ 'src/a.ts': 'export const a = 1;\n' }, 1);
    cleanup.push(root);
    const clone = clones[0]!;
    writeFiles(clone, { 'src/a.ts': 'export const a = 2;\n' });
    const render = () => renderReadyPreCommit({ cwd: clone, colors: false, at: Date.now(), sensing: liveSensing });
    expect((await render())?.parts.length).toBeGreaterThan(0);
    writeFiles(clone, { '.airspacerc.json': JSON.stringify({ hooks: { 'pre-commit': { publishBeacon: true } } }) });
    expect(await render()).toBeNull();
    expect(gitIn(clone, 'ls-remote', 'origin', 'refs/airspace/*')).toBe('');
  });
});
