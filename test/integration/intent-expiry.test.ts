import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { addIntent, clearIntent, listIntent } from '../../src/state/intent-store.js';
import { initRepo, removeDir, testEnv } from '../helpers/temp-repo.js';

Object.assign(process.env, testEnv());

/** Intent declared with a time to live is gone once it has passed; intent declared without stays. */
const dir = initRepo({ 'src/a.ts': 'a\n' });
afterAll(() => removeDir(dir));
const T = 1_800_000_000_000;

describe('intent with a time to live', () => {
  it('expires, is renewed by a new declaration, and a declaration without one makes it permanent', async () => {
    const first = await addIntent(dir, ['src/a.ts', 'src/b.ts'], T, { ttlMs: 60_000 });
    expect(first).toEqual({ paths: ['src/a.ts', 'src/b.ts'], declared: ['src/a.ts', 'src/b.ts'], added: ['src/a.ts', 'src/b.ts'] });
    expect(await listIntent(dir, T + 59_999)).toEqual(['src/a.ts', 'src/b.ts']);
    expect(await listIntent(dir, T + 60_000)).toEqual([]);

    expect((await addIntent(dir, ['src/a.ts'], T + 30_000, { ttlMs: 60_000 })).added).toEqual([]);
    expect(await listIntent(dir, T + 60_000)).toEqual(['src/a.ts']);
    // Expired, so declaring it again is new (a caller withdrawing a refused edit may take it back).
    expect((await addIntent(dir, ['src/b.ts'], T + 61_000, { ttlMs: 60_000 })).added).toEqual(['src/b.ts']);

    await addIntent(dir, ['src/a.ts'], T + 61_000);
    expect(await listIntent(dir, T + 10 * 86_400_000)).toEqual(['src/a.ts']);
    expect(await clearIntent(dir, ['src/a.ts'], T + 62_000)).toEqual(['src/b.ts']);
  });

  it('stores a path named __proto__ as a plain key', async () => {
    await addIntent(dir, ['__proto__'], T, { ttlMs: 1_000 });
    const stored = JSON.parse(readFileSync(join(dir, '.git', 'airspace', 'intent.json'), 'utf8'));
    expect(Object.keys(stored.expiresAt)).toContain('__proto__');
    expect(await listIntent(dir, T + 1_000)).not.toContain('__proto__');
  });
});
