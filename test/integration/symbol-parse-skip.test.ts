import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blobKey } from '../../src/symbols/read-blobs.js';
import { newParseMemo, symbolChannel, type SymbolChannelResult } from '../../src/symbols/symbol-channel.js';
import { commitAll, gitIn, initRepo, removeDir, testEnv, writeFiles } from '../helpers/temp-repo.js';

Object.assign(process.env, testEnv());

/**
 * The symbol channel works out the other side's changed declarations only when the side it reads
 * first uses a name in its new lines, and parses that side's versions only when one of the two
 * directions needs them (src/symbols/symbol-channel.ts, `computeChannel`):
 * the busiest pusher's 500 beacons were parsed for nothing when its own work could meet none of
 * them (docs/decisions/beacon-areas.md). The result must be exactly the one of parsing both sides:
 * here every ordered pair of 25 sides off one base — comments, body edits, removed, renamed and
 * re-signed exports, a local helper re-signed and used, interface members, new code using imports,
 * a namespace import, barrels (`export *`, re-exports removed, a changed barrel on the way) and a new file — against the same pair with `parseBothSides`, and a hook's
 * shape (one side in every pair, one memo for all of them) against the same.
 */
const BASE: Record<string, string> = {
  'src/math.ts': [
    'export function add(x: number, y: number): number {',
    '  return x + y;',
    '}',
    'export function scale(x: number): number {',
    '  return x * 2;',
    '}',
    'export interface Shape {',
    '  width: number;',
    '  height?: number;',
    '}',
    'export const LIMIT = 10;',
    'function helper(x: number): number {',
    '  return x - 1;',
    '}',
    'export function useHelper(x: number): number {',
    '  return helper(x);',
    '}',
    '',
  ].join('\n'),
  'src/view.ts': [
    "import { add, scale, type Shape } from './math';",
    'export function area(s: Shape): number {',
    '  return add(s.width, s.height ?? 0);',
    '}',
    'export function double(x: number): number {',
    '  return scale(x);',
    '}',
    '',
  ].join('\n'),
  'src/util.ts': ["import * as m from './math';", 'export function twice(x: number): number {', '  return m.scale(m.scale(x));', '}', ''].join('\n'),
  'src/index.ts': ["export * from './math';", "export { twice } from './util';", 'export function version(x: number): number {', '  return x;', '}', ''].join(
    '\n',
  ),
  'src/app.ts': ["import { scale, twice } from './index';", 'export const app = scale(1);', ''].join('\n'),
  'src/named.ts': ["export { twice } from './util';", ''].join('\n'),
  'src/late.ts': ["import { twice } from './named';", 'export const late = twice(1);', ''].join('\n'),
};

type Files = Record<string, string>;
/** One edit of a side: a text replacement in a file (skipped when an earlier edit removed its anchor), or a new file. */
type Edit = (files: Files, tag: string) => void;
const replace =
  (path: string, from: string, to: string): Edit =>
  (files) => {
    if (files[path]?.includes(from)) files[path] = files[path]!.replace(from, to);
  };
const append =
  (path: string, text: string): Edit =>
  (files, tag) => {
    files[path] = `${files[path]}${text.replaceAll('TAG', tag)}`;
  };
const EDITS: Record<string, Edit> = {
  comment: (files, tag) => {
    files['src/view.ts'] = `// note ${tag}\n${files['src/view.ts']}`;
  },
  body: replace('src/math.ts', 'return x * 2;', 'return x * 3;'),
  signature: replace('src/math.ts', 'add(x: number, y: number): number {', 'add(x: number, y: number, z: number): number {'),
  remove: replace('src/math.ts', 'export function scale(x: number): number {\n  return x * 2;\n}\n', ''),
  rename: replace('src/math.ts', 'export function scale(', 'export function scaleBy('),
  member: replace('src/math.ts', 'height?: number;', 'height: number;'),
  removeLimit: replace('src/math.ts', 'export const LIMIT = 10;\n', ''),
  helper: replace('src/math.ts', 'function helper(x: number): number {', 'function helper(x: number, y: number): number {'),
  useImport: append('src/view.ts', 'export function sumTAG(a: number): number {\n  return add(a, scale(a));\n}\n'),
  useNamespace: append('src/util.ts', 'export function thriceTAG(x: number): number {\n  return m.scale(x) + m.add(x, 1);\n}\n'),
  useLocal: append('src/math.ts', 'export function viaTAG(x: number): number {\n  return helper(x) + 1;\n}\n'),
  useType: append('src/view.ts', 'export const boxTAG: Shape = { width: 1 };\n'),
  twice: replace('src/util.ts', 'twice(x: number): number {', 'twice(x: number, y: number): number {'),
  dropReExport: replace('src/index.ts', "export { twice } from './util';\n", ''),
  useBarrel: append('src/app.ts', 'export const appTAG = twice(scale(2));\n'),
  // Through the barrel, `scale` alone: a changed barrel stops its resolution there (src/symbols/resolve-import.ts).
  useBarrelScale: append('src/app.ts', 'export const bTAG = scale(3);\n'),
  resignVersion: replace('src/index.ts', 'version(x: number): number {', 'version(x: number, y: number): number {'),
  useNamed: append('src/late.ts', 'export const lateTAG = twice(2);\n'),
  dropNamed: replace('src/named.ts', "export { twice } from './util';\n", ''),
  newFile: (files, tag) => {
    files[`src/extra-${tag}.ts`] = "import { LIMIT, scale } from './math';\nexport const top = scale(LIMIT);\n";
  },
};

function lcg(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

let repo: string;
let base: string;
const sides: { name: string; commit: string; files: string[] }[] = [];

beforeAll(() => {
  repo = initRepo(BASE);
  base = gitIn(repo, 'rev-parse', 'HEAD');
  const random = lcg(27);
  const names = Object.keys(EDITS);
  // Sides that change no declaration and use no name first (the busiest pusher's kind), then mixes.
  const plans = [
    ['comment'],
    ['body'],
    ['comment', 'body'],
    ['useImport'],
    ['remove'],
    ['helper'],
    ['useLocal'],
    ['helper', 'useLocal'],
    ['useBarrel'],
    ['twice', 'member'],
    ['dropReExport'],
    ['useBarrelScale'],
    ['resignVersion', 'remove'],
    ['useNamed'],
    ['useNamespace'],
    ['dropNamed'],
  ];
  while (plans.length < 25) plans.push(Array.from({ length: 1 + Math.floor(random() * 3) }, () => names[Math.floor(random() * names.length)]!));
  plans.forEach((plan, i) => {
    gitIn(repo, 'checkout', '-q', '--detach', base);
    const files: Files = { ...BASE };
    for (const name of plan) EDITS[name]!(files, String(i));
    writeFiles(repo, files);
    sides.push({ name: `${i}:${plan.join('+')}`, commit: commitAll(repo, `side ${i}`), files: Object.keys(files) });
  });
});

afterAll(() => removeDir(repo));

const parsedVersions = (memo: ReturnType<typeof newParseMemo>, side: (typeof sides)[number]): number =>
  side.files.filter((path) => memo.programs.has(blobKey(side.commit, path))).length;

describe('the symbol channel parses the other side only when it can matter', () => {
  it('every pair: the same result as parsing both sides', async () => {
    let skipped = 0;
    let collided = 0;
    for (const a of sides) {
      for (const b of sides) {
        if (a === b) continue;
        const memo = newParseMemo();
        const ids = { a: a.name, b: b.name };
        const fast = await symbolChannel(repo, base, a.commit, b.commit, { ids, parsed: memo });
        const full = await symbolChannel(repo, base, a.commit, b.commit, { ids, parseBothSides: true });
        expect({ pair: ids, result: fast }).toEqual({ pair: ids, result: full });
        if (parsedVersions(memo, b) === 0) skipped++;
        if (full.collisions.length > 0) collided++;
      }
    }
    // Both branches ran: pairs whose second side was never parsed, and pairs that collide.
    expect(skipped).toBeGreaterThan(20);
    expect(collided).toBeGreaterThan(40);
  });

  it("a hook's shape: one side in every pair, either way round, one memo for the run", async () => {
    for (const own of sides.slice(0, 6)) {
      const memo = newParseMemo();
      const results: SymbolChannelResult[] = [];
      const expected: SymbolChannelResult[] = [];
      for (const peer of sides) {
        if (peer === own) continue;
        for (const [a, b] of [
          [own, peer],
          [peer, own],
        ] as const) {
          const ids = { a: a.name, b: b.name };
          results.push(await symbolChannel(repo, base, a.commit, b.commit, { ids, parsed: memo }));
          expected.push(await symbolChannel(repo, base, a.commit, b.commit, { ids, parseBothSides: true }));
        }
      }
      expect(results).toEqual(expected);
    }
  });
});
