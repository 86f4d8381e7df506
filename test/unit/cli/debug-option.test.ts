import { describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main.js';
import { EXIT } from '../../../src/errors.js';
import type { Output } from '../../../src/report/output.js';
import { createStyle } from '../../../src/report/terminal-style.js';

/**
 * A bug (exit 3) is one line and a hint by default, its stack under `--debug` (README, "Exit codes").
 * The bug is planted in the injected output: its first write throws, as a renderer bug would.
 * `intent add` with no paths writes one line and starts no git process.
 */
function buggyOutput(): { output: Output; errors: string[] } {
  const errors: string[] = [];
  let first = true;
  const plain = createStyle(false);
  const write = (text: string) => {
    if (first) {
      first = false;
      throw new TypeError('a planted bug');
    }
    errors.push(text);
  };
  return { output: { out: write, err: write, style: plain, errStyle: plain, progress: () => {} }, errors };
}

describe('--debug', () => {
  it('is an option the CLI accepts, on any command', async () => {
    const errors: string[] = [];
    const plain = createStyle(false);
    const output: Output = { out: () => {}, err: (t) => errors.push(t), style: plain, errStyle: plain, progress: () => {} };
    expect(await main(['intent', 'add', '--debug'], output)).toBe(EXIT.error);
    expect(errors.join('\n')).not.toMatch(/Unknown argument/);
  });

  it('without it a bug is one line and the hint to run again with --debug', async () => {
    const { output, errors } = buggyOutput();
    expect(await main(['intent', 'add'], output)).toBe(EXIT.internal);
    expect(errors[0]).toBe('airspace-hooks: internal error: a planted bug');
    expect(errors[1]).toContain('run the command again with --debug');
    expect(errors.join('\n')).not.toMatch(/\n\s+at /);
  });

  it('with it the same bug shows its stack, and no hint', async () => {
    const { output, errors } = buggyOutput();
    expect(await main(['intent', 'add', '--debug'], output)).toBe(EXIT.internal);
    expect(errors[0]).toBe('airspace-hooks: internal error: a planted bug');
    expect(errors.join('\n')).toMatch(/TypeError: a planted bug\n\s+at /);
    expect(errors.join('\n')).not.toContain('run the command again with --debug');
  });
});
