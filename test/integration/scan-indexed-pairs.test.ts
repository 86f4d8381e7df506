import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pathsMayConflict } from '../../src/channels/paths-may-conflict.js';
import { PRODUCT_CHANNELS } from '../../src/engine/channel-names.js';
import { prepareScoring } from '../../src/run/score-pairs.js';
import { collectAirspace, type Airspace, type PairWorkingSets } from '../../src/traffic/collect-airspace.js';
import { comparePairs } from '../../src/traffic/pair-working-sets.js';
import { buildUnpaired } from '../../src/traffic/unpaired-pairs.js';
import { commitAll, gitIn, removeDir, runCli, tempDir, writeFiles, initRepo } from '../helpers/temp-repo.js';

/**
 * `scan` builds only the pairs whose paths meet (src/traffic/every-pair.ts). On a repository of
 * moderate size (27 lines of work, 351 pairs, most of them apart) the built pairs plus the
 * unbuilt ones equal what comparing every pair with `git merge-base` gives, and the scores, levels
 * and radar positions are the same as when every pair is built and scored.
 */
const DIRS = ['core', 'api', 'model', 'store', 'ui', 'util'];
const lines = (n: number, tag: string): string => Array.from({ length: n }, (_, i) => `${tag} line ${i + 1}`).join('\n') + '\n';
const BRANCHES = 24;

let root: string;
let repo: string;
const specs: string[] = [];

beforeAll(() => {
  root = tempDir('airspace-indexed-');
  const files: Record<string, string> = {};
  for (const dir of DIRS) for (let f = 0; f < 5; f++) files[`src/${dir}/file-${f}.ts`] = lines(40, `${dir}/${f}`);
  repo = initRepo(files, join(root, 'repo'));
  for (let b = 0; b < BRANCHES; b++) {
    const name = `work-${String(b).padStart(2, '0')}`;
    gitIn(repo, 'switch', '-q', '-c', name, 'main');
    const dir = DIRS[b % DIRS.length]!;
    // Two files of one folder, at lines that depend on the branch: some pairs overlap, most are apart.
    const edits: Record<string, string> = {};
    for (const f of [b % 5, (b * 3 + 1) % 5]) {
      const path = `src/${dir}/file-${f}.ts`;
      const text = files[path]!.split('\n');
      const at = (b * 7) % 35;
      for (let k = at; k < at + 3; k++) text[k] = `${name} edit ${k}`;
      edits[path] = text.join('\n');
    }
    writeFiles(repo, edits);
    if (b === 5) {
      // A directory where work-10 edits a file (file/directory).
      gitIn(repo, 'rm', '-q', 'src/ui/file-0.ts');
      writeFiles(repo, { 'src/ui/file-0.ts/inner.ts': 'a file under a path another branch edits as a file\n' });
    }
    if (b === 7) {
      gitIn(repo, 'rm', '-q', 'src/util/file-4.ts');
      writeFiles(repo, { 'src/moved/file-4.ts': files['src/util/file-4.ts']! });
    }
    commitAll(repo, `${name}: change`);
    specs.push(`${name}=${name}`);
  }
  // A branch on top of work-00: the two share a commit, so their merge-base is work-00's tip.
  gitIn(repo, 'switch', '-q', '-c', 'stacked', 'work-00');
  writeFiles(repo, { 'src/api/file-2.ts': lines(40, 'api/2').replace('api/2 line 5\n', 'stacked edit\n') });
  commitAll(repo, 'stacked: on top of work-00');
  specs.push('stacked=stacked');
  // And one that takes work-01's commit back: its diff from main meets nothing of work-01's, yet
  // the pair's merge-base is work-01's tip, where the revert is a change to work-01's files.
  gitIn(repo, 'switch', '-q', '-c', 'reverted', 'work-01');
  gitIn(repo, 'revert', '--no-edit', 'HEAD');
  specs.push('reverted=reverted');
  gitIn(repo, 'switch', '-q', 'main');
}, 120_000);

afterAll(() => removeDir(root));

const collect = (): Promise<Airspace> =>
  collectAirspace(repo, { remote: 'origin', include: [], exclude: [], maxAgeDays: 14, agents: specs, ignore: () => false, pairs: 'all' });

const key = (pair: { a: string; b: string }): string => `${pair.a}\0${pair.b}`;

describe('scan builds only the pairs whose paths meet', () => {
  it('built + unbuilt pairs equal every pair compared with git merge-base, and no unbuilt pair meets', async () => {
    const airspace = await collect();
    const unpaired = airspace.unpaired!;
    expect(unpaired.count).toBeGreaterThan(100);
    const unbuilt = buildUnpaired(unpaired);
    expect(unbuilt).toHaveLength(unpaired.count);
    for (const pair of unbuilt) expect(pathsMayConflict(pair.workingSetA.files, pair.workingSetB.files)).toBe(false);

    // The brute force: every pair of the same lines, each merge-base asked from git (no commit graph).
    const all = [airspace.ownship!, ...airspace.traffic];
    const list = all.flatMap((a, i) => all.slice(i + 1).map((b) => [a, b] as const));
    const reference = await comparePairs(list, { cwd: repo, graph: new Map(), graphComplete: false, ignore: () => false, concurrency: 4 });
    const expected = new Map(reference.map((p) => [key({ a: p.a.id, b: p.b.id }), { base: p.base.base, a: p.workingSetA, b: p.workingSetB }]));
    const got = new Map([...airspace.pairs, ...unbuilt].map((p) => [key(p), { base: p.base, a: p.workingSetA, b: p.workingSetB }]));
    expect(got.size).toBe(list.length);
    expect(got).toEqual(expected);
  }, 120_000);

  it('scores, levels, counts and radar positions are those of scoring every pair', async () => {
    const airspace = await collect();
    // As `scan --agent` does (src/run/collect-traffic.ts): the main worktree's pairs go, so the
    // first pair of every agent is one with work-00 — which must be built for the radar.
    const own = airspace.ownship!.id;
    const named = airspace.pairs.filter((p) => p.a !== own && p.b !== own);
    const full: PairWorkingSets[] = [...named, ...buildUnpaired(airspace.unpaired!)];
    const score = (pairs: readonly PairWorkingSets[], provenClear: number) =>
      prepareScoring({
        pairs,
        facts: new Map(),
        graph: { adjacency: {} },
        model: {},
        channels: PRODUCT_CHANNELS.filter((c) => c !== 'merge' && c !== 'symbol'),
        now: Date.now(),
        history: {},
        embed: true,
        contactOnly: true,
        provenClear,
      }).score();
    const indexed = score(named, airspace.unpaired!.count);
    const everything = score(full, 0);
    expect(indexed.links.length).toBeGreaterThan(5);
    expect(indexed.links).toEqual(everything.links);
    expect(indexed.positions).toEqual(everything.positions);
    expect(indexed.fileCoordinates).toEqual(everything.fileCoordinates);
    expect([indexed.contacts, indexed.clearWithoutContact, indexed.clearBound]).toEqual([
      everything.contacts,
      everything.clearWithoutContact,
      everything.clearBound,
    ]);
  }, 120_000);

  it('a worktree that declares intent on a file only an unbuilt pair would share is listed with that peer', () => {
    // The branches as a remote's: discovery finds them, with a linked worktree beside the main one
    // (26 + 3 lines, 406 pairs: past the symbol channel's every-pair limit, so pairs are left unbuilt).
    const remote = join(root, 'remote.git');
    gitIn(root, 'init', '-q', '--bare', remote);
    gitIn(repo, 'remote', 'add', 'origin', remote);
    gitIn(repo, 'push', '-q', 'origin', 'main', ...specs.map((spec) => spec.split('=')[0]!));
    gitIn(repo, 'fetch', '-q', 'origin');
    gitIn(repo, 'remote', 'set-head', 'origin', 'main');
    // A first worktree: the planner must not be the first or second line, whose pairs are all built.
    gitIn(repo, 'worktree', 'add', '-q', '-b', 'first', join(root, 'wt-first'), 'main');
    const tree = join(root, 'wt-planner');
    gitIn(repo, 'worktree', 'add', '-q', '-b', 'planner', tree, 'main');
    writeFiles(tree, { 'docs/plan.md': 'planning\n' });
    commitAll(tree, 'planner: plan');
    const plannerLinks = (): { peer: string; shared: string[] }[] => {
      const result = runCli(repo, ['scan', '--json']);
      expect(result.status, result.stderr).toBe(0);
      const report = JSON.parse(result.stdout) as {
        links: { a: string; b: string; sharedFiles: { path: string }[] }[];
        pairs: { compared: number };
        scanned: { stages: { stage: string; detail?: string }[] };
      };
      expect(report.pairs.compared).toBe(406);
      // The traffic stage built only the pairs whose paths meet, and says how many it left apart.
      const traffic = /^\d+ peers, (\d+) pairs compared \((\d+) more proven apart by path\)$/.exec(
        report.scanned.stages.find((s) => s.stage === 'traffic')?.detail ?? '',
      );
      expect(traffic, JSON.stringify(report.scanned.stages)).not.toBeNull();
      expect(Number(traffic![1]) + Number(traffic![2])).toBe(406);
      expect(Number(traffic![2])).toBeGreaterThan(100);
      return report.links
        .filter((link) => link.a === 'planner' || link.b === 'planner')
        .map((link) => ({ peer: link.a === 'planner' ? link.b : link.a, shared: link.sharedFiles.map((f) => f.path) }));
    };
    // The planner touches nothing under src/: no pair of it meets another.
    expect(plannerLinks()).toEqual([]);
    // work-03 and work-09 edit src/store/file-3.ts.
    expect(runCli(tree, ['intent', 'add', 'src/store/file-3.ts']).status).toBe(0);
    const links = plannerLinks();
    expect(links.map((l) => l.peer).sort()).toEqual(expect.arrayContaining(['work-03', 'work-09']));
    for (const link of links) expect(link.shared).toEqual(['src/store/file-3.ts']);
  }, 120_000);

  it('a branch whose beacon adds a file (uncommitted work on another machine) is paired on it', () => {
    // Runs after the test above: the branches are on the remote. Another machine works on work-01
    // and publishes its uncommitted edit of a file only work-02 touches.
    const ada = join(root, 'ada');
    gitIn(root, 'clone', '-q', join(root, 'remote.git'), ada);
    gitIn(ada, 'switch', '-q', 'work-01');
    const path = 'src/model/file-2.ts';
    writeFiles(ada, { [path]: lines(40, 'model/2').replace('model/2 line 30\n', 'ada edit\n') });
    expect(runCli(ada, ['beacon', 'publish']).status).toBe(0);
    const result = runCli(repo, ['scan', '--fetch', '--json']);
    expect(result.status, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as { links: { a: string; b: string; sharedFiles: { path: string }[] }[] };
    const pair = report.links.find((link) => link.a === 'work-01' && link.b === 'work-02');
    expect(pair?.sharedFiles.map((f) => f.path)).toEqual([path]);
  }, 120_000);
});
