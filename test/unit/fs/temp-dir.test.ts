import { existsSync, mkdirSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sweepStale } from '../../../src/fs/temp-dir.js';

/** Temporary index folders left by killed runs are swept (issue 24, item 10: 22 left over 147 kills). */
describe('sweepStale', () => {
  it('removes this prefix’s folders older than an hour, keeps fresh ones and other prefixes', async () => {
    const prefix = `airspace-sweep-test-${process.pid}-`;
    const old = join(tmpdir(), `${prefix}old`);
    const fresh = join(tmpdir(), `${prefix}fresh`);
    const other = join(tmpdir(), `airspace-other-${process.pid}`);
    for (const dir of [old, fresh, other]) mkdirSync(join(dir, 'inner'), { recursive: true });
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
    utimesSync(old, twoHoursAgo, twoHoursAgo);
    utimesSync(other, twoHoursAgo, twoHoursAgo);
    try {
      expect(await sweepStale(prefix)).toBe(1);
      expect(existsSync(old)).toBe(false);
      expect(existsSync(fresh)).toBe(true);
      expect(existsSync(other)).toBe(true);
    } finally {
      for (const dir of [old, fresh, other]) rmSync(dir, { recursive: true, force: true });
    }
  });
});
