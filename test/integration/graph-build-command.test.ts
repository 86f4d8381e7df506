import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initRepo, removeDir, runCli } from '../helpers/temp-repo.js';

/**
 * `graph build` as a user runs it (issue 26, item 2): listed in --help; a second build reads
 * nothing that did not change; `--force` reads every file again (refresh 'force').
 */
let repo: string;

beforeAll(() => {
  repo = initRepo({
    'src/a.ts': "import { b } from './b';\nexport const a = b;\n",
    'src/b.ts': "import { c } from './c.js';\nexport const b = c;\n",
    'src/c.ts': 'export const c = 1;\n',
  });
});
afterAll(() => removeDir(repo));

const build = (...args: string[]): { ran: boolean; files: number; source: string } => JSON.parse(runCli(repo, ['graph', 'build', '--json', ...args]).stdout);

describe('graph build', () => {
  it('is listed in --help with --force', () => {
    expect(runCli(repo, ['--help']).stdout).toMatch(/graph <action>\s+graph build: build or refresh the import graph/);
    expect(runCli(repo, ['graph', '--help']).stdout).toContain('--force');
  });

  it('reads only what changed, and every file with --force', () => {
    expect(build()).toMatchObject({ ran: true, files: 3, source: 'full' });
    expect(build()).toMatchObject({ ran: true, files: 0, source: 'cache' });
    expect(build('--force')).toMatchObject({ ran: true, files: 3, source: 'full' });
  });
});
