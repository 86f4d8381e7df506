import { cpSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gitIn, remoteWithClones, removeDir, runCli, tempDir } from './temp-repo.js';

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
export interface CopiedClones {
  readonly root: string;
  readonly remote: string;
  readonly clones: string[];
}

export function cloneTemplate(
  files: Record<string, string | Buffer>,
  count = 2,
  options: { graph?: boolean; prepare?: (clones: string[]) => void } = {},
): { copy: () => CopiedClones; dispose: () => void } {
  const template = remoteWithClones(files, 1);
  const first = template.clones[0]!;
  if (options.graph) {
    const built = runCli(first, ['graph', 'build']);
    if (built.status !== 0) throw new Error(`graph build failed in the template: ${built.stderr}`);
  }
  // Every clone of one remote at one commit is the same directory: copy the first.
  for (let i = 2; i <= count; i++) cpSync(first, join(template.root, `clone-${i}`), { recursive: true, verbatimSymlinks: true });
  // What every test of the file starts from (branches made, work pushed), done once with real git.
  options.prepare?.(Array.from({ length: count }, (_, i) => join(template.root, `clone-${i + 1}`)));
  const copies: string[] = [];
  const copy = (): CopiedClones => {
    const root = tempDir();
    copies.push(root);
    for (const name of readdirSync(template.root))
      if (name !== 'seed') cpSync(join(template.root, name), join(root, name), { recursive: true, verbatimSymlinks: true });
    const remote = join(root, 'remote.git');
    const clones = Array.from({ length: count }, (_, i) => join(root, `clone-${i + 1}`));
    // Each copy pushes to and fetches from its own remote, never the template's.
    for (const clone of clones) gitIn(clone, 'remote', 'set-url', 'origin', remote);
    return { root, remote, clones };
  };
  const dispose = () => [template.root, ...copies.splice(0)].forEach(removeDir);
  return { copy, dispose };
}
