import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { appendSamples, readHistory } from '../../src/state/history-store.js';
import { removeDir, tempDir } from '../helpers/temp-repo.js';

describe('risk history of a scan with many agents', () => {
  const dir = tempDir();
  afterAll(() => removeDir(dir));

  it('takes the 499,500 samples of 1,000 agents in one call (no argument-count limit)', async () => {
    const at = 1_800_000_000_000;
    const samples = Array.from({ length: 499_500 }, (_, i) => ({ pairKey: `p${i}`, at: at - (i % 7), risk: 0.1 }));
    await expect(appendSamples(join(dir, '.git'), samples)).resolves.toBeUndefined();
    const history = await readHistory(join(dir, '.git'));
    expect(Object.keys(history).length).toBeGreaterThan(0);
  });
});
