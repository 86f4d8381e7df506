import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeFileAtomic, writeFileAtomicSync } from '../../../src/fs/atomic-write.js';
import { removeDir, tempDir } from '../../helpers/temp-repo.js';

describe('writeFileAtomic', () => {
  const dir = tempDir();
  afterAll(() => removeDir(dir));

  it('creates the parent directory and replaces the file, leaving no temp file', async () => {
    const file = join(dir, 'a', 'state.json');
    await writeFileAtomic(file, 'one');
    writeFileAtomicSync(file, 'two');
    await writeFileAtomic(file, new TextEncoder().encode('three'));
    expect(readFileSync(file, 'utf8')).toBe('three');
    expect(readdirSync(join(dir, 'a'))).toEqual(['state.json']);
  });

  // (process.umask cannot be set in a worker thread; the chmod after the write is what makes it exact.)
  it('gives the mode asked for', async () => {
    await writeFileAtomic(join(dir, 'hook-a'), '#!/bin/sh\n', { mode: 0o755 });
    writeFileAtomicSync(join(dir, 'hook-b'), '#!/bin/sh\n', { mode: 0o755 });
    expect(statSync(join(dir, 'hook-a')).mode & 0o777).toBe(0o755);
    expect(statSync(join(dir, 'hook-b')).mode & 0o777).toBe(0o755);
  });

  it('a failed rename throws and removes its temp file', async () => {
    const target = join(dir, 'b', 'taken');
    mkdirSync(join(target, 'inside'), { recursive: true });
    await expect(writeFileAtomic(target, 'x')).rejects.toThrow();
    expect(() => writeFileAtomicSync(target, 'x')).toThrow();
    expect(readdirSync(join(dir, 'b'))).toEqual(['taken']);
  });
});
