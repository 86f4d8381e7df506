import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pathsMayConflict } from '../../src/channels/paths-may-conflict.js';
import { PRODUCT_CHANNELS } from '../../src/engine/channel-names.js';
import { prepareScoring } from '../../src/run/score-pairs.js';
import { collectAirspace, type Airspace, type PairWorkingSets } from '../../src/traffic/collect-airspace.js';
import { comparePairs } from '../../src/traffic/pair-working-sets.js';
import { buildUnpaired } from '../../src/traffic/unpaired-pairs.js';
import { commitAll, gitIn, initRepo, removeDir, tempDir, writeFiles } from '../helpers/temp-repo.js';

/**
 * `scan` leaves unbuilt the pairs of lines that left the trunk at different commits when their
 * paths cannot meet (src/traffic/every-pair.ts, AcrossBases). 24 branches leave main at six
 * different commits; between them the trunk edits files some branches edit, deletes a file (whose
 * content a newer branch adds elsewhere: a rename in the older base's coordinates), moves one, and
 * copies one that a newer branch deletes (a rename again, from an older base).
 * The pairs built equal what every pair compared with `git merge-base` gives; no pair left unbuilt
 * meets there; and the scores, levels, counts and radar positions are those of scoring every pair.
 */
const DIRS = ['core', 'api', 'model', 'store', 'ui', 'util'];
const lines = (n: number, tag: string): string => `${Array.from({ length: n }, (_, i) => `${tag} line ${i + 1}`).join('\n')}\n`;
const BRANCHES = 24;

let root: string;
let repo: string;
const specs: string[] = [];
const files: Record<string, string> = {};

const edited = (text: string, from: number, tag: string): string => {
  const rows = text.split('\n');
  for (let k = from; k < from + 3; k++) rows[k] = `${tag} edit ${k}`;
  return rows.join('\n');
};

beforeAll(() => {
  root = tempDir('airspace-across-');
  for (const dir of DIRS) for (let f = 0; f < 5; f++) files[`src/${dir}/file-${f}.ts`] = lines(40, `${dir}/${f}`);
  repo = initRepo(files, join(root, 'repo'));
  const trunk = [gitIn(repo, 'rev-parse', 'HEAD')];
  const step = (change: () => void, message: string): void => {
    change();
    commitAll(repo, message);
    trunk.push(gitIn(repo, 'rev-parse', 'HEAD'));
  };
  // A copy of src/store/file-4.ts: a newer line that deletes the original has, from an older base, a rename out of src/store.
  step(
    () => writeFiles(repo, { 'src/core/file-4.ts': edited(files['src/core/file-4.ts']!, 0, 'trunk'), 'src/core/extra.ts': files['src/store/file-4.ts']! }),
    'trunk: core',
  );
  step(() => gitIn(repo, 'rm', '-q', 'src/util/file-0.ts'), 'trunk: drop util/file-0');
  step(() => writeFiles(repo, { 'src/ui/file-1.ts': edited(files['src/ui/file-1.ts']!, 10, 'trunk') }), 'trunk: ui');
  step(() => {
    gitIn(repo, 'rm', '-q', 'src/model/file-3.ts');
    writeFiles(repo, { 'src/moved/file-3.ts': files['src/model/file-3.ts']! });
  }, 'trunk: move model/file-3');
  step(() => writeFiles(repo, { 'src/api/file-2.ts': edited(files['src/api/file-2.ts']!, 20, 'trunk') }), 'trunk: api');
  for (let b = 0; b < BRANCHES; b++) {
    const name = `work-${String(b).padStart(2, '0')}`;
    const fork = Math.floor(b / 4) % trunk.length;
    gitIn(repo, 'switch', '-q', '-c', name, trunk[fork]!);
    const dir = DIRS[b % DIRS.length]!;
    const edits: Record<string, string> = {};
    for (const f of [b % 5, (b * 3 + 1) % 5]) {
      const path = `src/${dir}/file-${f}.ts`;
      if (gitIn(repo, 'ls-files', path) === '') continue;
      edits[path] = edited(files[path]!, (b * 7) % 35, name);
    }
    writeFiles(repo, edits);
    commitAll(repo, `${name}: change`);
    specs.push(`${name}=${name}`);
  }
  // Left at the newest commit, it adds the content of the file the trunk deleted: against an older
  // base that is a rename out of src/util, which meets the branches with a file directly in it.
  gitIn(repo, 'switch', '-q', '-c', 'adder', trunk.at(-1)!);
  writeFiles(repo, { 'src/api/new-0.ts': files['src/util/file-0.ts']! });
  commitAll(repo, 'adder: new file');
  specs.push('adder=adder');
  gitIn(repo, 'switch', '-q', '-c', 'dropper', trunk.at(-1)!);
  gitIn(repo, 'rm', '-q', 'src/store/file-4.ts');
  commitAll(repo, 'dropper: drop store/file-4');
  specs.push('dropper=dropper');
  gitIn(repo, 'switch', '-q', 'main');
}, 120_000);

afterAll(() => removeDir(root));

const collect = (): Promise<Airspace> =>
  collectAirspace(repo, {
    remote: 'origin',
    include: [],
    exclude: [],
    maxAgeDays: 14,
    agents: specs,
    ignore: () => false,
    pairs: 'all',
    acrossBases: () => true,
  });

const key = (pair: { a: string; b: string }): string => `${pair.a}\0${pair.b}`;

describe('scan leaves apart the pairs of lines that left the trunk at different commits', () => {
  it('the built pairs equal every pair compared with git merge-base, and no pair left unbuilt meets', async () => {
    const airspace = await collect();
    const unpaired = airspace.unpaired!;
    expect(unpaired.across).toBeGreaterThan(50);
    const all = [airspace.ownship!, ...airspace.traffic];
    const list = all.flatMap((a, i) => all.slice(i + 1).map((b) => [a, b] as const));
    const reference = await comparePairs(list, { cwd: repo, graph: new Map(), graphComplete: false, ignore: () => false, concurrency: 4 });
    const got = new Map([...airspace.pairs, ...buildUnpaired(unpaired)].map((p) => [key(p), { base: p.base, a: p.workingSetA, b: p.workingSetB }]));
    expect(got.size).toBe(list.length - unpaired.across);
    let apart = 0;
    for (const pair of reference) {
      const found = got.get(key({ a: pair.a.id, b: pair.b.id }));
      if (found === undefined) {
        apart++;
        expect(pathsMayConflict(pair.workingSetA!.files, pair.workingSetB!.files), `${pair.a.id} – ${pair.b.id}`).toBe(false);
      } else expect(found).toEqual({ base: pair.base.base, a: pair.workingSetA, b: pair.workingSetB });
    }
    expect(apart).toBe(unpaired.across);
    const built = new Set(airspace.pairs.map(key));
    // The trunk edited src/ui/file-1.ts after work-04 (main's first commit) left it: work-04 meets
    // work-16 (left after that edit) only through the trunk's change in work-16's side from there.
    expect(built.has(key({ a: 'work-04', b: 'work-16' }))).toBe(true);
    // The adder's new file is a rename out of src/util from work-05's base: it meets work-05 there.
    expect(built.has(key({ a: 'work-05', b: 'adder' }))).toBe(true);
    // The dropper's deletion pairs with the trunk's copy of the file from work-03's base: a rename
    // out of src/store, where work-03 edits files.
    expect(built.has(key({ a: 'work-03', b: 'dropper' }))).toBe(true);
  }, 120_000);

  it('scores, levels, counts and radar positions are those of scoring every pair', async () => {
    const airspace = await collect();
    const own = airspace.ownship!.id;
    const all = [airspace.ownship!, ...airspace.traffic];
    const list = all.flatMap((a, i) => all.slice(i + 1).map((b) => [a, b] as const)).filter(([a, b]) => a.id !== own && b.id !== own);
    const reference = await comparePairs(list, { cwd: repo, graph: new Map(), graphComplete: false, ignore: () => false, concurrency: 4 });
    const full: PairWorkingSets[] = reference.map((p) => ({
      a: p.a.id,
      b: p.b.id,
      base: p.base.base!,
      workingSetA: p.workingSetA!,
      workingSetB: p.workingSetB!,
      states: { a: p.a.tip ?? '', b: p.b.tip ?? '', fromBase: true },
    }));
    const named = airspace.pairs.filter((p) => p.a !== own && p.b !== own);
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
    const indexed = score([...named, ...buildUnpaired(airspace.unpaired!)], airspace.unpaired!.across);
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
});
