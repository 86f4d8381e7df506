import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diffKey, diffWorkingSet, diffWorkingSets, SPLIT_AT } from '../../src/git/diff-working-set.js';
import { rawChangesBatch, rawKey, type RawRequest } from '../../src/git/raw-changes.js';
import { withRunScope } from '../../src/git/run-scope.js';
import { gitIn, initEmptyRepo, removeDir, tempDir, testEnv } from '../helpers/temp-repo.js';

Object.assign(process.env, testEnv());

/**
 * The beacon fold diffs every beacon's work from its base in one batch (src/run/beacon-traffic.ts),
 * and the merge batch asks the raw changes of the same pairs (src/channels/batched-merges.ts). For the
 * busiest pusher that is 500 works (docs/decisions/beacon-areas.md, "The busiest pusher, cold"): the
 * batch now runs in two halves side by side, and the raw changes come from the fold's diff when it had
 * no rename. Both must say exactly what git says: each diff what its own `diff-tree` says, each raw
 * change what `diff-tree --raw --no-renames` says. Works of every kind off one base: a modified line,
 * an added file, a deleted file, the executable bit, a file turned symlink, a rename (which the fold's
 * `-M50%` pairs and `--no-renames` does not), and two files at once.
 */
const text = (n: number, tag = ''): string => `${Array.from({ length: n }, (_, i) => `line ${i + 1}${i === 9 ? tag : ''}`).join('\n')}\n`;
const WORKS = 70;
let repo: string;
let base: string;
let works: string[];

const data = (content: string): string => `data ${Buffer.byteLength(content)}\n${content}\n`;

/** Work `i`'s changes against the base, as fast-import commands; the kinds cycle. */
function changesOf(i: number): string {
  switch (i % 7) {
    case 0:
      return `M 100644 inline a.txt\n${data(text(20, ` work ${i}`))}`;
    case 1:
      return `M 100644 inline new/n${i}.txt\n${data(text(3, ` new ${i}`))}`;
    case 2:
      return 'D b.txt\n';
    case 3:
      return `M 100755 inline c.sh\n${data(text(5))}`;
    case 4:
      return `M 120000 inline d/x.txt\n${data(`../a.txt`)}`;
    case 5:
      return `D old.txt\nM 100644 inline moved/m${i}.txt\n${data(text(30, ` moved ${i}`))}`;
    default:
      return `M 100644 inline a.txt\n${data(text(20, ` both ${i}`))}M 100644 inline d/x.txt\n${data(text(8, ` both ${i}`))}`;
  }
}

beforeAll(() => {
  repo = tempDir('airspace-diff-many-');
  initEmptyRepo(repo);
  const stamp = 'committer t <t@example.invalid> 1700000000 +0000\n';
  const chunks = [
    `commit refs/heads/main\nmark :1\n${stamp}${data('base')}`,
    `M 100644 inline a.txt\n${data(text(20))}M 100644 inline b.txt\n${data(text(12))}M 100644 inline c.sh\n${data(text(5))}`,
    `M 100644 inline d/x.txt\n${data(text(8))}M 100644 inline old.txt\n${data(text(30))}\n`,
  ];
  for (let i = 0; i < WORKS; i++) chunks.push(`commit refs/works/w${i}\n${stamp}${data(`work ${i}`)}from :1\n${changesOf(i)}\n`);
  execFileSync('git', ['fast-import', '--quiet'], { cwd: repo, input: chunks.join(''), env: testEnv() });
  base = gitIn(repo, 'rev-parse', 'main');
  works = Array.from({ length: WORKS }, (_, i) => gitIn(repo, 'rev-parse', `refs/works/w${i}`));
  trace = `${repo}-trace.json`;
  process.env.GIT_TRACE2_EVENT = trace;
}, 60_000);

afterAll(() => {
  delete process.env.GIT_TRACE2_EVENT;
  rmSync(trace, { force: true });
  removeDir(repo);
});

// Every git process of this file is traced: a run pins its environment when it starts
// (src/git/run-scope.ts), so the variable is set before any run, and each look empties the file.
let trace: string;

/** The git processes started while `fn` ran (trace2 sessions without a parent), their argv after `git`. */
async function traced<T>(fn: () => Promise<T>): Promise<{ value: T; processes: string[][] }> {
  rmSync(trace, { force: true });
  const value = await fn();
  const events = existsSync(trace)
    ? readFileSync(trace, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { event: string; sid: string; argv?: string[] })
    : [];
  const processes = events.filter((e) => e.event === 'start' && !e.sid.includes('/')).map((e) => (e.argv ?? []).slice(1));
  return { value, processes };
}

const diffTrees = (processes: string[][]): string[][] => processes.filter((argv) => argv.includes('diff-tree') && argv.includes('--stdin'));

describe('the diffs of many works from one base', () => {
  it(`from ${SPLIT_AT} works on, two processes side by side, and each diff is the one git makes of it alone`, async () => {
    const requests = works.map((target) => ({ base, target }));
    expect(requests.length).toBeGreaterThanOrEqual(SPLIT_AT);
    const { value: batch, processes } = await traced(() => diffWorkingSets(repo, requests));
    expect(diffTrees(processes)).toHaveLength(2);
    for (const request of requests) expect(batch.get(diffKey(request)), request.target).toEqual(await diffWorkingSet(repo, base, request.target));
    // Below it, one process as before.
    const few = requests.slice(0, SPLIT_AT - 1);
    const { value: fewer, processes: one } = await traced(() => diffWorkingSets(repo, few));
    expect(diffTrees(one)).toHaveLength(1);
    for (const request of few) expect(fewer.get(diffKey(request))).toEqual(batch.get(diffKey(request)));
  });

  it("the merge batch's raw changes are what --no-renames says, and come from the run's diffs without a process", async () => {
    const requests: RawRequest[] = works.map((target) => ({ base, target }));
    // What git says, outside any run (nothing remembered there).
    const truth = await rawChangesBatch(repo, requests);
    expect(truth.size).toBe(WORKS);
    const renamed = works.filter((_, i) => i % 7 === 5);
    // The fold's rename pairs the deletion and the addition: those are asked again, never rewritten.
    expect(truth.get(rawKey({ base, target: renamed[0]! }))!.map((c) => c.status)).toEqual(['A', 'D']);
    await withRunScope(new AbortController().signal, async () => {
      await diffWorkingSets(repo, requests);
      const { value: remembered, processes } = await traced(() => rawChangesBatch(repo, requests));
      expect(remembered).toEqual(truth);
      // One process, for the renamed works alone (a batch of every work's diff is the same process).
      expect(diffTrees(processes)).toHaveLength(1);
      const { processes: none } = await traced(() =>
        rawChangesBatch(
          repo,
          requests.filter((r) => !renamed.includes(r.target)),
        ),
      );
      expect(diffTrees(none)).toEqual([]);
    });
    // The single diff (the ownship's side against the same base) is remembered too, in its own run.
    await withRunScope(new AbortController().signal, async () => {
      const own = works[6]!;
      const { value, processes } = await traced(async () => {
        await diffWorkingSet(repo, base, own);
        return rawChangesBatch(repo, [{ base, target: own }]);
      });
      expect(diffTrees(processes)).toEqual([]);
      expect(value.get(rawKey({ base, target: own }))).toEqual(truth.get(rawKey({ base, target: own })));
      // A pair never diffed in this run (the other way round) is asked of git.
      const { processes: asked } = await traced(() => rawChangesBatch(repo, [{ base: own, target: base }]));
      expect(diffTrees(asked)).toHaveLength(1);
    });
    // Outside the run, nothing is remembered: git is asked again.
    const { value: again, processes } = await traced(() => rawChangesBatch(repo, requests.slice(0, 3)));
    expect(diffTrees(processes)).toHaveLength(1);
    for (const request of requests.slice(0, 3)) expect(again.get(rawKey(request))).toEqual(truth.get(rawKey(request)));
  });
});
