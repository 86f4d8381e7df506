import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { installedClones } from '../helpers/copied-clones.js';
import type { RemoteWithClones } from '../helpers/copy-fixture.js';
import { beaconsOf, pushAsync as push, waitFor } from '../helpers/push-race.js';
import { commitAll, gitIn, pathWithCli, removeDir, writeFiles } from '../helpers/temp-repo.js';

/**
 * What a pre-push announces (its beacon with `pushing`, src/run/recheck-after-announce.ts) and
 * when it settles it (the same beacon without, src/run/run-airspace.ts stage 6c): a push that will
 * not land must not stay "under way", or every peer with the right of way steers from it for a
 * minute. Real `git push` processes with the installed hooks, one bare remote per situation; where
 * timing matters, the remote's pre-receive hook holds a ref until the test lets it go.
 */
const numbered = (n: number) => `${Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n')}\n`;
const PATH = pathWithCli();
const FILES = { 'src/session.ts': numbered(80), 'README.md': '# x\n', 'notes.md': 'n\n' };
const roots: string[] = [];

/** `src/session.ts` with lines `at` and `at + 1` edited the `tag` way: two such edits at one place conflict. */
const edit = (tag: string, at: number) =>
  numbered(80)
    .replace(`line ${at}\n`, `line ${at} ${tag}\n`)
    .replace(`line ${at + 1}\n`, `line ${at + 1} ${tag}\n`);

const heads = (remote: string) => gitIn(remote, 'for-each-ref', '--format=%(refname)', 'refs/heads/').split('\n');

/** The remote's `name` hook (pre-receive, post-receive): `body` runs once per pushed ref, with `$old $new $ref`. */
function remoteHook(remote: string, name: string, body: readonly string[]): void {
  const file = join(remote, 'hooks', name);
  writeFileSync(file, ['#!/bin/sh', 'while read old new ref; do', ...body, 'done', 'exit 0', ''].join('\n'));
  chmodSync(file, 0o755);
}

function clones(count: number): RemoteWithClones {
  const fixture = installedClones(FILES, count, PATH);
  roots.push(fixture.root);
  return fixture;
}

afterAll(() => roots.forEach(removeDir));

describe('a push that will not land settles its announce', () => {
  it('a push of two refs, one of them blocked, settles both: git sends neither', async () => {
    const f = clones(3);
    const [one, two, three] = f.clones as [string, string, string];
    const trunk = gitIn(one, 'rev-parse', '--abbrev-ref', 'HEAD');
    // `two` has landed on lines 20–21; `three` has pushed work (a readme) and now edits lines 40–41.
    gitIn(two, 'switch', '-q', '-c', 'two/work');
    writeFiles(two, { 'src/session.ts': edit('two', 20) });
    commitAll(two, 'two: session lines');
    expect((await push(two)).status).toBe(0);
    gitIn(three, 'switch', '-q', '-c', 'three/work');
    writeFiles(three, { 'README.md': '# three\n' });
    commitAll(three, 'three: readme');
    expect((await push(three)).status).toBe(0);
    writeFiles(three, { 'src/session.ts': edit('three', 40) });
    commitAll(three, 'three: lines 40');
    // `one` pushes two branches at once: `one/work` must steer from `two`; `one/side` would hold against `three`.
    gitIn(one, 'switch', '-q', '-c', 'one/work');
    writeFiles(one, { 'src/session.ts': edit('one', 20) });
    commitAll(one, 'one: session lines');
    gitIn(one, 'switch', '-q', '-c', 'one/side', trunk);
    writeFiles(one, { 'src/session.ts': edit('side', 40) });
    commitAll(one, 'one: lines 40');

    const both = await push(one, ['origin', 'one/work', 'one/side']);
    expect(both.status, both.stderr).not.toBe(0);
    expect(both.stderr).toContain('steer: you must steer away from two/work');
    expect(heads(f.remote)).not.toContain('refs/heads/one/side');
    // The held-back ref did not land: its announce is settled on the remote.
    const side = beaconsOf(f.remote, 'one/side');
    expect(side.length).toBeGreaterThan(0);
    for (const beacon of side) expect(beacon.pushing).toBeUndefined();
    // So `three`, with the right of way against `one/side`, holds and lands (it steered from the
    // announce, "at the same moment", while `one/side` stayed under way).
    const third = await push(three);
    expect(third.status, third.stderr).toBe(0);
    expect(third.stderr).not.toContain('at the same moment');
  }, 120_000);
});

/**
 * `one` has landed on lines 20–21 (the right of way: pushed work) and `two` edits the same lines, so
 * `two`'s push steers in its first look. Its first beacon is on the remote, and its run waits there
 * (git push waits for the remote's post-receive hook) until `release()`.
 */
async function steeringPushHeldAtRemote() {
  const f = clones(2);
  const [one, two] = f.clones as [string, string];
  const marks = join(f.root, 'marks');
  gitIn(f.root, 'init', '-q', marks);
  gitIn(one, 'switch', '-q', '-c', 'one/work');
  writeFiles(one, { 'src/session.ts': edit('one', 20) });
  commitAll(one, 'one: session lines');
  expect((await push(one)).status).toBe(0);
  gitIn(two, 'switch', '-q', '-c', 'two/work');
  writeFiles(two, { 'src/session.ts': edit('two', 20) });
  commitAll(two, 'two: session lines');
  remoteHook(f.remote, 'post-receive', [
    `  case "$ref" in refs/airspace/*) if [ ! -e '${marks}/held' ] && git cat-file blob "$new:beacon.json" | grep -q '"agent":"two/work"'; then`,
    `    : > '${marks}/held'; i=0`,
    `    while [ ! -e '${marks}/release' ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done`,
    '  fi;; esac',
  ]);
  const steering = push(two, ['-u', 'origin', 'HEAD'], { AIRSPACE_HOOKS_BUDGET_MS: '60000' });
  await waitFor(join(marks, 'held'), 45_000);
  return { remote: f.remote, one, steering, release: () => writeFileSync(join(marks, 'release'), '') };
}

describe('a push that already steers in its first look', () => {
  it('does not announce: a peer with the right of way holds against it and lands', async () => {
    const { remote, one, steering, release } = await steeringPushHeldAtRemote();
    writeFiles(one, { 'README.md': '# one more\n' });
    commitAll(one, 'one: readme');
    expect(beaconsOf(remote, 'two/work').length).toBeGreaterThan(0);
    const holder = await push(one);
    release();
    const steered = await steering;

    expect(steered.status, steered.stderr).not.toBe(0);
    expect(steered.stderr).toContain('steer: you must steer away from one/work');
    expect(holder.status, holder.stderr).toBe(0);
    expect(holder.stderr).not.toContain('at the same moment');
    for (const beacon of beaconsOf(remote, 'two/work')) expect(beacon.pushing).toBeUndefined();
  }, 120_000);

  it('stays blocked when its second look no longer sees the conflict: it never announced, so it may not land', async () => {
    // `one` takes its edit back while `two` waits, so `two`'s second look sees no conflict any more.
    const { remote, one, steering, release } = await steeringPushHeldAtRemote();
    writeFiles(one, { 'src/session.ts': numbered(80) });
    commitAll(one, 'one: take the session lines back');
    expect((await push(one)).status).toBe(0);
    release();
    const steered = await steering;

    expect(steered.status, steered.stderr).not.toBe(0);
    expect(steered.stderr).toContain('steer: you must steer away from one/work');
    expect(heads(remote)).not.toContain('refs/heads/two/work');
  }, 120_000);
});

describe('a peer whose push lands between our two looks', () => {
  it('was under way in our first look and never settled: we steer, and only its push lands', async () => {
    const f = clones(2);
    const [one, two] = f.clones as [string, string];
    const marks = join(f.root, 'marks');
    gitIn(f.root, 'init', '-q', marks);
    // `one` has pushed work elsewhere (two commits): it keeps the right of way after `two` lands its one commit.
    gitIn(one, 'switch', '-q', '-c', 'one/work');
    writeFiles(one, { 'README.md': '# one\n' });
    commitAll(one, 'one: readme');
    writeFiles(one, { 'notes.md': 'one\n' });
    commitAll(one, 'one: notes');
    expect((await push(one)).status).toBe(0);
    writeFiles(one, { 'src/session.ts': edit('one', 20) });
    commitAll(one, 'one: session lines');
    gitIn(two, 'switch', '-q', '-c', 'two/work');
    writeFiles(two, { 'src/session.ts': edit('two', 20) });
    commitAll(two, 'two: session lines');
    // `two`'s branch waits at the remote (its looks are done) until `one`'s announce arrives; that
    // announce then waits until `two`'s branch has landed: `one`'s first look sees `two` under way,
    // its second sees `two` landed.
    remoteHook(f.remote, 'pre-receive', [
      '  if [ "$ref" = "refs/heads/two/work" ]; then',
      `    : > '${marks}/arrived'; i=0`,
      `    while [ ! -e '${marks}/release' ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done`,
      '  fi',
      `  case "$ref" in refs/airspace/*) if [ -e '${marks}/arrived' ] && [ ! -e '${marks}/release' ] && git cat-file blob "$new:beacon.json" | grep -q '"agent":"one/work"'; then`,
      `    : > '${marks}/release'; i=0`,
      '    while ! git rev-parse -q --verify refs/heads/two/work >/dev/null && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done',
      '  fi;; esac',
    ]);
    const landing = push(two);
    await waitFor(join(marks, 'arrived'), 45_000);
    const first = await push(one);
    const landed = await landing;

    expect(landed.status, landed.stderr).toBe(0);
    expect(first.status, first.stderr).not.toBe(0);
    expect(first.stderr).toContain('steer: you must steer away from two/work');
    // `one/work` on the remote is still its earlier push, without the session lines.
    expect(gitIn(f.remote, 'rev-parse', 'refs/heads/one/work')).not.toBe(gitIn(one, 'rev-parse', 'HEAD'));
    for (const beacon of beaconsOf(f.remote, 'one/work')) expect(beacon.pushing).toBeUndefined();
  }, 120_000);

  it('was under way in our first look and settled before our second: it steered, so we hold and land', async () => {
    const f = clones(2);
    const [one, two] = f.clones as [string, string];
    const marks = join(f.root, 'marks');
    gitIn(f.root, 'init', '-q', marks);
    gitIn(one, 'switch', '-q', '-c', 'one/work');
    writeFiles(one, { 'README.md': '# one\n' });
    commitAll(one, 'one: readme');
    expect((await push(one)).status).toBe(0);
    writeFiles(one, { 'src/session.ts': edit('one', 20) });
    commitAll(one, 'one: session lines');
    gitIn(two, 'switch', '-q', '-c', 'two/work');
    writeFiles(two, { 'src/session.ts': edit('two', 20) });
    commitAll(two, 'two: session lines');
    // `two` announces (its first look saw no conflict) and waits at the remote until `one` has
    // announced; `two`'s second look then sees `one` (pushed work: the right of way) and steers, and
    // `one`'s announce waits at the remote until `two`'s settle is there.
    const beacon = (agent: string, pushing: boolean) =>
      `git cat-file blob "$new:beacon.json" | grep -q '"agent":"${agent}"' && ${pushing ? '' : '! '}git cat-file blob "$new:beacon.json" | grep -q '"pushing"'`;
    remoteHook(f.remote, 'post-receive', [
      '  case "$ref" in refs/airspace/*)',
      `    if ${beacon('two/work', true)}; then : > '${marks}/two-announced'; i=0; while [ ! -e '${marks}/one-announced' ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done; fi`,
      `    if ${beacon('two/work', false)}; then : > '${marks}/two-settled'; fi`,
      `    if ${beacon('one/work', true)}; then : > '${marks}/one-announced'; i=0; while [ ! -e '${marks}/two-settled' ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done; fi`,
      '  ;; esac',
    ]);
    const steering = push(two, ['-u', 'origin', 'HEAD'], { AIRSPACE_HOOKS_BUDGET_MS: '60000' });
    await waitFor(join(marks, 'two-announced'), 45_000);
    const holder = await push(one, ['origin', 'HEAD'], { AIRSPACE_HOOKS_BUDGET_MS: '60000' });
    const steered = await steering;

    expect(existsSync(join(marks, 'two-settled'))).toBe(true);
    expect(steered.status, steered.stderr).not.toBe(0);
    expect(holder.status, holder.stderr).toBe(0);
    expect(gitIn(f.remote, 'rev-parse', 'refs/heads/one/work')).toBe(gitIn(one, 'rev-parse', 'HEAD'));
  }, 120_000);
});
