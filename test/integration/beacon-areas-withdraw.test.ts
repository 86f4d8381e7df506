import { afterAll, describe, expect, it } from 'vitest';
import { areaKey } from '../../src/beacon/beacon-areas.js';
import { gitIn, remoteWithClones, removeDir, runCli, testEnv, writeFiles } from '../helpers/temp-repo.js';

Object.assign(process.env, testEnv());

/**
 * Issue 27: a beacon stands under its legacy ref and one ref per area (docs/decisions/beacon-areas.md).
 * A publish deletes the refs of the areas its work left; a withdrawal (work discarded) removes every
 * ref of the dead beacon, including areas this run did not list (with legacy refs off, the fetch of
 * a worktree without work lists no area of it: the clone's record names them).
 */
const numbered = (n: number) => `${Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n')}\n`;
const roots: string[] = [];
afterAll(() => roots.forEach(removeDir));

const airspaceRefs = (remote: string) => gitIn(remote, 'for-each-ref', '--format=%(refname)', 'refs/airspace/').split('\n').filter(Boolean);

describe('area refs of a beacon', () => {
  for (const legacyRefs of ['read', 'off'] as const) {
    it(`follow its work and all go when it is withdrawn (legacyRefs: ${legacyRefs})`, () => {
      const setup = remoteWithClones({ 'src/engine/session.ts': numbered(20), 'docs/guide.md': numbered(5), '.gitignore': '.airspacerc.json\n' }, 1);
      roots.push(setup.root);
      const [ada] = setup.clones as [string];
      writeFiles(ada, { '.airspacerc.json': JSON.stringify({ beacons: { legacyRefs } }) });
      gitIn(ada, 'switch', '-q', '-c', 'ada/work');
      writeFiles(ada, { 'src/engine/session.ts': numbered(20).replace('line 3\n', 'line 3 ada\n') });
      expect(runCli(ada, ['beacon', 'publish']).status).toBe(0);
      const legacy = legacyRefs === 'off' ? [] : [expect.stringMatching(/^refs\/airspace\/beacons\/[0-9a-f]{10}\/ada%2Fwork$/)];
      expect(airspaceRefs(setup.remote)).toEqual([
        expect.stringMatching(new RegExp(`^refs/airspace/areas/${areaKey('src/engine')}/[0-9a-f]{10}/ada%2Fwork$`)),
        ...legacy,
      ]);

      // The work moves to docs/: the src/engine ref goes in the same push.
      gitIn(ada, 'checkout', '--', 'src/engine/session.ts');
      writeFiles(ada, { 'docs/guide.md': numbered(5).replace('line 2\n', 'line 2 ada\n') });
      expect(runCli(ada, ['beacon', 'publish']).status).toBe(0);
      expect(airspaceRefs(setup.remote)).toEqual([expect.stringMatching(new RegExp(`^refs/airspace/areas/${areaKey('docs')}/`)), ...legacy]);

      // Work discarded: the next network command withdraws every ref of the beacon.
      gitIn(ada, 'checkout', '--', 'docs/guide.md');
      const withdrawn = runCli(ada, ['check', '--fetch']);
      expect(withdrawn.stderr).toContain('withdrew 1 beacon');
      expect(airspaceRefs(setup.remote)).toEqual([]);
    });
  }
});
