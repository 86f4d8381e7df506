import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { compileGlobs, GLOB_LIMITS, globProblem } from '../../../src/config/compile-globs.js';
import { DEFAULT_IGNORE } from '../../../src/config/defaults.js';

/**
 * The config's globs are matched without exponential cases, and agree with picomatch (which the
 * config's `ignore` used before) on the syntax both accept: random globs over a small alphabet
 * against random repository paths, so that the same letters meet in many ways.
 */
function rng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

function randomSegmentGlob(random: () => number): string {
  const parts = ['a', 'b', '.', '-', '*', '?', '[ab]', '[a-b]', '[^a]', '{a,b}', '{a,.b}', 'ab'];
  const length = 1 + Math.floor(random() * 4);
  return Array.from({ length }, () => pick(random, parts)).join('');
}

function randomGlob(random: () => number): string {
  const length = 1 + Math.floor(random() * 4);
  return Array.from({ length }, () => (random() < 0.25 ? '**' : randomSegmentGlob(random))).join('/');
}

function randomPath(random: () => number): string {
  const length = 1 + Math.floor(random() * 4);
  const segment = (): string => {
    const text = Array.from({ length: 1 + Math.floor(random() * 4) }, () => pick(random, ['a', 'b', '.', '-'])).join('');
    // git never lists a `.` or `..` segment (picomatch's `**` refuses them).
    return text === '.' || text === '..' ? segment() : text;
  };
  return Array.from({ length }, segment).join('/');
}

/** A glob ending in `<segment with a star>/**` that matches the path once the trailing `/**` is gone. */
function picomatchTrailingGlobstarQuirk(glob: string, path: string): boolean {
  if (!glob.endsWith('/**')) return false;
  const rest = glob.slice(0, -3);
  return rest.slice(rest.lastIndexOf('/') + 1).includes('*') && compileGlobs([rest])(path);
}

describe('compileGlobs', () => {
  it('agrees with picomatch { dot: true } on random globs and paths', () => {
    const random = rng(7);
    let matched = 0;
    let quirks = 0;
    for (let round = 0; round < 500; round++) {
      const glob = randomGlob(random);
      const ours = compileGlobs([glob]);
      const theirs = picomatch([glob], { dot: true });
      for (let i = 0; i < 24; i++) {
        const path = randomPath(random);
        const expected = theirs(path);
        if (expected) matched++;
        // picomatch's one inconsistency (src/config/compile-globs.ts): `a*/**` misses `ab`.
        if (!expected && ours(path) && picomatchTrailingGlobstarQuirk(glob, path)) {
          quirks++;
          continue;
        }
        expect(ours(path), `${glob} vs ${path}`).toBe(expected);
      }
    }
    // The corpus is not trivially "no match", and the difference stays the one described.
    expect(matched).toBeGreaterThan(1000);
    expect(quirks).toBeLessThan(matched / 10);
  });

  it('agrees with picomatch on the default ignore list and on written cases', () => {
    const paths = [
      'package-lock.json',
      'web/package-lock.json',
      'dist',
      'dist/a.js',
      'src/dist/x/y.js',
      'a.min.js',
      'src/a.min.js.map',
      'docs/CHANGELOG.md',
      'src/build.ts',
      '.env',
      'coverage/lcov.info',
    ];
    const globs = [...DEFAULT_IGNORE, 'src/**', '*.ts', '**/*.ts', './src/*.ts', '!src/**', 'a{,b}', '{a,{b,c}}/d', '\\*', '[]a]', 'dist/**/*'];
    for (const glob of globs) {
      const ours = compileGlobs([glob]);
      const theirs = picomatch([glob], { dot: true });
      for (const path of paths) expect(ours(path), `${glob} vs ${path}`).toBe(theirs(path));
    }
    expect(compileGlobs(DEFAULT_IGNORE)('web/yarn.lock')).toBe(true);
    expect(compileGlobs(DEFAULT_IGNORE)('src/index.ts')).toBe(false);
  });

  it('takes milliseconds where picomatch backtracks for minutes', () => {
    // issue 24: 20 `a*` against a 36-character name took picomatch 75 s. Past the limits, as
    // if validation had been skipped: the matcher itself has no exponential case.
    const globs = [`**/${'a*'.repeat(20)}b`, `${'*a'.repeat(40)}*b`, `${'**/a/'.repeat(30)}b`, `**/${'{a,aa}'.repeat(6)}b`];
    const paths = ['a'.repeat(36), 'a'.repeat(4096), `${'a/'.repeat(2000)}c`, `${'a'.repeat(255)}/`.repeat(16)];
    const started = performance.now();
    for (const glob of globs) {
      const match = compileGlobs([glob]);
      for (const path of paths) expect(match(path)).toBe(false);
    }
    // Wide: the point is seconds against minutes, not a speed benchmark.
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

describe('globProblem', () => {
  it('accepts the default ignore list and ordinary globs', () => {
    for (const glob of [...DEFAULT_IGNORE, 'src/**/*.generated.*', '{src,lib}/**/__snapshots__/**', 'a[bc]?.ts', '.env*']) {
      expect(globProblem(glob), glob).toBeNull();
    }
  });

  it('names what it refuses', () => {
    expect(globProblem(`**/${'a*'.repeat(20)}b`)).toBe('21 wildcards');
    expect(globProblem('x'.repeat(GLOB_LIMITS.length + 1))).toMatch(/longer than/);
    expect(globProblem('+(a|b)')).toBe('an extglob');
    expect(globProblem('(a|aa)b')).toBe('a ( ) or | group');
    expect(globProblem('[[:alpha:]]')).toBe('a POSIX class');
    expect(globProblem('{1..9}')).toBe('a brace range');
    expect(globProblem('{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}')).toMatch(/brace alternatives/);
  });
});
