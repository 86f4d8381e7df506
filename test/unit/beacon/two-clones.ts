import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { gitIn, initRepo, tempDir } from '../../helpers/temp-repo.js';

/**
 * Same as `remoteWithClones` from test/helpers/temp-repo.ts, which currently fails: it passes a
 * not-yet-existing `seed` dir to `initRepo` and git is spawned with a missing cwd (ENOENT).
 * Switch back once the helper creates the directory.
 */
export function bareRemoteWithClones(files: Record<string, string>, clones = 2): { remote: string; clones: string[]; root: string } {
  const root = tempDir();
  const seedDir = join(root, 'seed');
  mkdirSync(seedDir);
  const seed = initRepo(files, seedDir);
  const remote = join(root, 'remote.git');
  gitIn(root, 'init', '-q', '--bare', '-b', 'main', remote);
  gitIn(seed, 'remote', 'add', 'origin', remote);
  gitIn(seed, 'push', '-q', 'origin', 'main');
  const paths: string[] = [];
  for (let i = 0; i < clones; i++) {
    const path = join(root, `clone-${i + 1}`);
    gitIn(root, 'clone', '-q', remote, path);
    paths.push(path);
  }
  return { remote, clones: paths, root };
}
