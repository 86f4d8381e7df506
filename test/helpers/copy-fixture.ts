import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { tempDir } from './temp-repo.js';

/**
 * A fresh copy of a remote-with-clones fixture (the shape of `remoteWithClones` in temp-repo.ts)
 * built once in a beforeAll: a file copy costs no git or CLI process, rebuilding it costs a dozen
 * git runs and, with hooks installed, two CLI runs per test. Every test still gets its own
 * repositories: nothing one test pushes or writes is seen by another.
 *
 * A clone names its remote by absolute path (`remote.origin.url` in .git/config): that path is
 * rewritten to the copy's. Linked worktrees (absolute paths in `.git` files) are not supported:
 * add them after copying.
 */
export interface RemoteWithClones {
  readonly remote: string;
  readonly clones: string[];
  readonly root: string;
}

export function copyRemoteWithClones(fixture: RemoteWithClones): RemoteWithClones {
  const root = tempDir();
  cpSync(fixture.root, root, { recursive: true, verbatimSymlinks: true });
  const moved = (path: string) => join(root, relative(fixture.root, path));
  const clones = fixture.clones.map(moved);
  for (const clone of clones) {
    const config = join(clone, '.git', 'config');
    writeFileSync(config, readFileSync(config, 'utf8').split(fixture.root).join(root));
  }
  return { remote: moved(fixture.remote), clones, root };
}
