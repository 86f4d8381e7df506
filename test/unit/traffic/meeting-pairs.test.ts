import { describe, expect, it } from 'vitest';
import { pathsMayConflict } from '../../../src/channels/paths-may-conflict.js';
import { preparePairList } from '../../../src/engine/index.js';
import { toAgent } from '../../../src/traffic/to-agent.js';
import { meetingPairs } from '../../../src/traffic/meeting-pairs.js';
import type { WorkingSetFile } from '../../../src/traffic/working-set.js';
import { int, pick, rng } from '../engine/generate-airspace.js';

/**
 * The inverted index of paths (every-pair.ts builds only the pairs it returns) against the brute
 * force over every pair: it must return exactly the pairs whose paths may conflict in git, and
 * those must include every pair the engine finds a shared file in.
 */
const DIRS = ['src', 'src/a', 'src/a/deep', 'src/b', 'lib', 'lib/x', ''];
const NAMES = ['one.ts', 'two.ts', 'three.ts', 'deep', 'x', 'a'];

function randomPath(random: () => number): string {
  const dir = pick(random, DIRS);
  return dir === '' ? pick(random, NAMES) : `${dir}/${pick(random, NAMES)}`;
}

function randomSide(random: () => number): WorkingSetFile[] {
  const files: WorkingSetFile[] = [];
  const count = int(random, 0, 4);
  for (let k = 0; k < count; k++) {
    const file = randomPath(random);
    const roll = random();
    if (roll < 0.15) files.push({ file, path: randomPath(random), status: 'R', ranges: [[1, 3]] });
    else if (roll < 0.25) files.push({ file, status: 'A', whole: true });
    else files.push({ file, status: 'M', ranges: [[int(random, 1, 40), int(random, 41, 60)]] });
  }
  return files;
}

describe('meetingPairs: the path index against every pair', () => {
  it('returns exactly the pairs pathsMayConflict accepts, on 300 random airspaces', () => {
    const random = rng(27);
    let meeting = 0;
    let apart = 0;
    const wrong: string[] = [];
    for (let round = 0; round < 300; round++) {
      const sides = Array.from({ length: int(random, 2, 14) }, () => randomSide(random));
      const n = sides.length;
      const found = meetingPairs(sides);
      for (let i = 0; i < n; i++) {
        for (let j = i + 1; j < n; j++) {
          const brute = pathsMayConflict(sides[i]!, sides[j]!);
          if (found.has(i * n + j) !== brute) wrong.push(JSON.stringify([sides[i], sides[j]]));
          if (brute) meeting++;
          else apart++;
        }
      }
      for (const key of found) if (Math.floor(key / n) >= key % n) wrong.push(`key ${key} of ${n}`);
    }
    expect(wrong).toEqual([]);
    // Both kinds occur often enough for the comparison to mean something.
    expect(meeting).toBeGreaterThan(1000);
    expect(apart).toBeGreaterThan(1000);
  });

  it('every pair the engine finds a shared file in is a meeting pair', () => {
    const random = rng(2027);
    for (let round = 0; round < 100; round++) {
      const sides = Array.from({ length: int(random, 2, 12) }, () => randomSide(random));
      const n = sides.length;
      const agents = sides.map((files, i) => toAgent(`agent-${i}`, { base: 'b', files }));
      const pairs: [number, number][] = [];
      for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) pairs.push([i, j]);
      const links = preparePairList(agents, pairs, { adjacency: {} }).score({}).links;
      const found = meetingPairs(sides);
      links.forEach((link, k) => {
        const [i, j] = pairs[k]!;
        if (link.sharedFiles.length > 0) expect(found.has(i * n + j)).toBe(true);
      });
    }
  });

  it('a file where the other side has a directory, and a file moved out of a directory, meet', () => {
    const found = meetingPairs([
      [{ file: 'src/a', status: 'A', whole: true }],
      [{ file: 'src/a/b.ts', status: 'M', ranges: [[1, 2]] }],
      [{ file: 'lib/old/c.ts', path: 'lib/new/c.ts', status: 'R' }],
      [{ file: 'lib/old/d.ts', status: 'A', whole: true }],
      [{ file: 'docs/e.md', status: 'M', ranges: [[1, 2]] }],
    ]);
    expect([...found].sort((x, y) => x - y)).toEqual([0 * 5 + 1, 2 * 5 + 3]);
  });
});
