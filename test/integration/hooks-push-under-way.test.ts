import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installedClones } from '../helpers/copied-clones.js';
import type { RemoteWithClones } from '../helpers/copy-fixture.js';
import { beaconsOf, pushAsync as push, waitFor } from '../helpers/push-race.js';
import { commitAll, gitIn, pathWithCli, removeDir, writeFiles } from '../helpers/temp-repo.js';

/**
 * The race src/run/recheck-after-announce.ts closes, made certain instead of timed: `two` has
 * announced and decided, and its branch is still on its way to the remote (the remote's
 * pre-receive hook holds it) when `one` pushes. `one` sees `two`'s announce in its first look and
 * has the right of way (by name: neither has pushed work), so by rank it would hold and land — and `two`,
 * whose looks both came before `one`'s announce, lands too. Real `git push` processes, the
 * installed hooks, one bare remote.
 */
const numbered = (n: number) => `${Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n')}\n`;
const PATH = pathWithCli();
let fixture: RemoteWithClones;

beforeAll(() => {
  fixture = installedClones({ 'src/session.ts': numbered(80), 'README.md': '# x\n' }, 2, PATH);
  const [one, two] = fixture.clones as [string, string];
  // The same two lines, two ways (every look's merge channel says they conflict). Nothing pushed
  // yet on either side: the last tie-break, the name, gives `one` the right of way.
  for (const [clone, tag] of [
    [one, 'one'],
    [two, 'two'],
  ] as const) {
    gitIn(clone, 'switch', '-q', '-c', `${tag}/work`);
    writeFiles(clone, { 'src/session.ts': numbered(80).replace('line 20\n', `line 20 ${tag}\n`).replace('line 21\n', `line 21 ${tag}\n`) });
    commitAll(clone, `${tag}: edit the session lines`);
  }
  // `two`'s branch update waits at the remote until the test releases it; beacon refs pass at once.
  const marks = join(fixture.root, 'marks');
  gitIn(fixture.root, 'init', '-q', marks);
  const hook = join(fixture.remote, 'hooks', 'pre-receive');
  writeFileSync(
    hook,
    [
      '#!/bin/sh',
      'while read old new ref; do',
      '  if [ "$ref" = "refs/heads/two/work" ]; then',
      `    : > '${marks}/arrived'`,
      '    i=0',
      `    while [ ! -e '${marks}/release' ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done`,
      '  fi',
      'done',
      'exit 0',
      '',
    ].join('\n'),
  );
  chmodSync(hook, 0o755);
}, 120_000);

afterAll(() => removeDir(fixture.root));

describe('a push that meets a peer whose announced push is still under way', () => {
  it('steers even with the right of way; exactly one of the two lands, and the next push ranks as usual', async () => {
    const [one, two] = fixture.clones as [string, string];
    const marks = join(fixture.root, 'marks');
    const second = push(two);
    // `two`'s hook announced, looked again and let its push go: only its branch is still travelling.
    await waitFor(join(marks, 'arrived'), 45_000);
    expect(beaconsOf(fixture.remote, 'two/work').some((beacon) => beacon.pushing === true)).toBe(true);

    const first = await push(one);
    writeFileSync(join(marks, 'release'), '');
    const landedTwo = await second;

    expect(landedTwo.status, landedTwo.stderr).toBe(0);
    expect(first.status, first.stderr).not.toBe(0);
    expect(first.stderr).toContain('steer: you must steer away');
    expect(first.stderr).toContain('announced a conflicting push at the same moment');
    const heads = gitIn(fixture.remote, 'for-each-ref', '--format=%(refname)', 'refs/heads/').split('\n');
    expect(heads).toContain('refs/heads/two/work');
    expect(heads).not.toContain('refs/heads/one/work');
    // A push that steered is no longer under way: its announce was settled on the remote.
    const settled = beaconsOf(fixture.remote, 'one/work');
    expect(settled.length).toBeGreaterThan(0);
    for (const beacon of settled) expect(beacon.pushing).toBeUndefined();

    // `two` has landed: `one`'s next push is ranked as usual (pushed work first), not "at the same moment".
    const again = await push(one);
    expect(again.status, again.stderr).not.toBe(0);
    expect(again.stderr).toContain('steer: you must steer away');
    expect(again.stderr).not.toContain('at the same moment');
  }, 90_000);
});
