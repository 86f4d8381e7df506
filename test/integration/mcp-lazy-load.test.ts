import { describe, expect, it } from 'vitest';
import { recordLoadsInThisFile } from '../helpers/module-load-log.js';

/**
 * The MCP SDK and zod are the heaviest dependencies: they must load in `mcp` only, never on the
 * hook path or in `check`. Measured, not assumed: a module-resolution hook records every URL the
 * real CLI resolves.
 */
const recording = recordLoadsInThisFile();

const loadedBy = (args: readonly string[], input?: string): string[] => recording.loads(args, input).urls;

const heavy = (urls: readonly string[]) => urls.filter((url) => /node_modules\/(@modelcontextprotocol|zod)\//.test(url));

describe('the MCP SDK loads only in `mcp`', () => {
  it('is not resolved by the pre-commit hook nor by check', () => {
    const hook = loadedBy(['hook', 'pre-commit']);
    const check = loadedBy(['check', '--json']);
    expect(hook.length).toBeGreaterThan(0);
    expect(check.some((url) => url.endsWith('/check-command.js'))).toBe(true);
    expect(heavy(hook)).toEqual([]);
    expect(heavy(check)).toEqual([]);
  });

  it('is resolved by mcp (so the check above can fail)', () => {
    expect(heavy(loadedBy(['mcp'])).length).toBeGreaterThan(0);
  });
});
