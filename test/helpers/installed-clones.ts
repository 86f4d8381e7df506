import { cpSync } from 'node:fs';
import { join } from 'node:path';
import type { RemoteWithClones } from './copy-fixture.js';
import { remoteWithClones, runCli } from './temp-repo.js';

/**
 * A bare remote and `count` clones with the hooks installed by ONE real `install --force`: the
 * first clone is installed, then copied as a plain directory. Every clone of one remote at one
 * commit is the same directory, and `install` writes only the two hook shims under .git/hooks
 * (no absolute path in them, nothing in .git/config), so each copy holds exactly what its own
 * install would have written — for one CLI run instead of `count`.
 * The copies are made before any branch or commit: use it to build a fixture that tests then copy
 * (test/helpers/copy-fixture.ts).
 */
export function installedClones(files: Record<string, string | Buffer>, count: number, path: string): RemoteWithClones {
  const built = remoteWithClones(files, 1);
  const first = built.clones[0]!;
  const install = runCli(first, ['install', '--force'], { PATH: path });
  if (install.status !== 0) throw new Error(`install failed in the fixture: ${install.stderr}${install.stdout}`);
  const clones = Array.from({ length: count }, (_, i) => join(built.root, `clone-${i + 1}`));
  for (const clone of clones.slice(1)) cpSync(first, clone, { recursive: true, verbatimSymlinks: true });
  return { root: built.root, remote: built.remote, clones };
}
