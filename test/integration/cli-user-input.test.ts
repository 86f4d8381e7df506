import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initRepo, removeDir, runCli } from '../helpers/temp-repo.js';

/**
 * What a user types wrong, or asks plainly, through the real CLI: one clear line and exit 2 for a
 * mistake, never "internal error" or a stack trace.
 */
let repo: string;

beforeAll(() => {
  repo = initRepo({ 'README.md': '# x\n', 'package.json': JSON.stringify({ name: 'host-project', version: '1.0.0' }) });
});

afterAll(() => {
  removeDir(repo);
});

describe('scan --agent', () => {
  it('the same NAME given twice is a usage error: exit 2, one line, no internal error', () => {
    const result = runCli(repo, ['scan', '--agent', 'x=HEAD', '--agent', 'x=main']);
    expect(result.status).toBe(2);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('--agent x is given twice');
    expect(result.stderr).not.toMatch(/internal error|same-agent-pair|\n\s+at /);
  });
});
