import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { copyRemoteWithClones, type RemoteWithClones } from './copy-fixture.js';
import { remoteWithClones, removeDir, runCli } from './temp-repo.js';

/**
 * A bare remote and its clones built once per test file with real git, then handed out as plain
 * directory copies: each test gets its own remote and clones (nothing shared, no order between
 * tests) without paying again for init, commit, push and clone.
 *
 * `prepare` runs once on the template's clones (with real git) before any copy is made.
 * With `graph: true` the template's first clone builds its import graph (`graph build`) before it
 * is copied, so every clone starts with the cache a user's clone has after its first run. Without
 * it, the first `check` in each fresh clone cruises the whole tree in the foreground (the suite
 * turns the background build off) and loads dependency-cruiser: ~2 s of CPU per clone that the
 * tests using this do not test (test/integration/beacon-symbol-collisions.test.ts).
 */
export type CopiedClones = RemoteWithClones;

export function cloneTemplate(
  files: Record<string, string | Buffer>,
  count = 2,
  options: { graph?: boolean; prepare?: (clones: string[]) => void } = {},
): { copy: () => CopiedClones; dispose: () => void } {
  const template = copiesOfFirstClone(files, count, (first) => {
    if (!options.graph) return;
    const graph = runCli(first, ['graph', 'build']);
    if (graph.status !== 0) throw new Error(`graph build failed in the template: ${graph.stderr}`);
  });
  // What every test of the file starts from (branches made, work pushed), done once with real git.
  options.prepare?.([...template.clones]);
  const copies: string[] = [];
  const copy = (): CopiedClones => {
    // Each copy pushes to and fetches from its own remote, never the template's.
    const copied = copyRemoteWithClones(template);
    copies.push(copied.root);
    return copied;
  };
  const dispose = () => [template.root, ...copies.splice(0)].forEach(removeDir);
  return { copy, dispose };
}

/**
 * A bare remote and `count` clones with the hooks installed by ONE real `install --force`: the
 * first clone is installed, then copied. `install` writes only the two hook shims under .git/hooks
 * (no absolute path in them, nothing in .git/config), so each copy holds exactly what its own
 * install would have written — for one CLI run instead of `count`. The copies are made before any
 * branch or commit: use it to build a fixture that tests then copy (test/helpers/copy-fixture.ts).
 */
export function installedClones(files: Record<string, string | Buffer>, count: number, path: string): RemoteWithClones {
  return copiesOfFirstClone(files, count, (first) => {
    const install = runCli(first, ['install', '--force'], { PATH: path });
    if (install.status !== 0) throw new Error(`install failed in the fixture: ${install.stderr}${install.stdout}`);
  });
}

/**
 * A bare remote and `count` clones for the price of one: `setUp` runs in the first clone, which
 * is then copied as a plain directory — every clone of one remote at one commit is the same
 * directory, so a copy is the clone git would have made (and what `setUp` would have made in it).
 */
function copiesOfFirstClone(files: Record<string, string | Buffer>, count: number, setUp: (first: string) => void): RemoteWithClones {
  const built = remoteWithClones(files, 1);
  const first = built.clones[0]!;
  setUp(first);
  const clones = Array.from({ length: count }, (_, i) => join(built.root, `clone-${i + 1}`));
  for (const clone of clones.slice(1)) cpSync(first, clone, { recursive: true, verbatimSymlinks: true });
  return { root: built.root, remote: built.remote, clones };
}
