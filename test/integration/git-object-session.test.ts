import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { isAirspaceError } from '../../src/errors.js';
import { hasCommit } from '../../src/git/commit-time.js';
import { objectContents, objectInfo } from '../../src/git/read-objects.js';
import { withRunScope, withRunSignal } from '../../src/git/run-scope.js';
import { commitAll, gitIn, initRepo, removeDir, sh, tempDir, testEnv, writeFiles } from '../helpers/temp-repo.js';

/**
 * The run's one `cat-file --batch-command` process (src/git/object-session.ts): every object read
 * of a run goes to it, answers stay in step whatever is asked, objects written after it started
 * are seen, caps and cancellation act on one request or on the whole process as documented, and
 * the process ends with the run. Real git, real repositories.
 */
Object.assign(process.env, testEnv());

let repo: string;
let other: string;
let scratch: string;
let head: string;
const text = 'export const a = 1;\nwith\nlines\n';

beforeAll(() => {
  repo = initRepo({ 'src/a.ts': text, 'dir with space/b c.txt': 'b\n' });
  head = gitIn(repo, 'rev-parse', 'HEAD');
  other = initRepo({ 'x.txt': 'only in the other repository\n' });
  scratch = tempDir('airspace-object-session-');
});
afterAll(() => {
  for (const dir of [repo, other, scratch]) removeDir(dir);
});
afterEach(() => {
  delete process.env.GIT_TRACE2_EVENT;
});

/** Runs `fn` as a run would (in a run scope) with git traced; returns its value and the cat-file starts. */
async function traced<T>(name: string, fn: () => Promise<T>, controller = new AbortController()): Promise<{ value: T; catFiles: string[][]; trace: string }> {
  const trace = join(scratch, `${name}.json`);
  process.env.GIT_TRACE2_EVENT = trace;
  const value = await withRunScope(controller.signal, fn);
  delete process.env.GIT_TRACE2_EVENT;
  return { value, catFiles: starts(trace).filter((argv) => argv.includes('cat-file')), trace };
}

function starts(trace: string): string[][] {
  return readFileSync(trace, 'utf8')
    .split('\n')
    .filter((line) => line.includes('"event":"start"'))
    .map((line) => (JSON.parse(line) as { argv: string[] }).argv);
}

const code = (error: unknown): string | undefined => (isAirspaceError(error) ? error.code : undefined);

describe('one object reader per run', () => {
  it('answers every request of the run from one process, as requests alone answer them', async () => {
    const names = [`${head}:src/a.ts`, `${head}:dir with space/b c.txt`, `${head}:missing.ts`, `${head}:src`, head];
    const alone = { info: await objectInfo(repo, names), contents: await objectContents(repo, names), commit: await hasCommit(repo, head) };
    const { value, catFiles } = await traced('many', async () => {
      const [info, contents, commit] = await Promise.all([objectInfo(repo, names), objectContents(repo, names), hasCommit(repo, head)]);
      const again = await objectContents(repo, [`${head}:src/a.ts`]);
      return { info, contents, commit, again };
    });
    expect(catFiles).toEqual([expect.arrayContaining(['cat-file', '--batch-command', '--buffer'])]);
    expect({ info: value.info, contents: value.contents, commit: value.commit }).toEqual(alone);
    expect(value.contents[0]?.content.toString('utf8')).toBe(text);
    expect(value.contents[1]?.content.toString('utf8')).toBe('b\n');
    expect(value.info[2]).toBeNull();
    expect(value.info[3]?.type).toBe('tree');
    expect(value.commit).toBe(true);
    expect(value.again[0]?.content.toString('utf8')).toBe(text);
  });

  it('sees objects written after it started: a loose blob, a commit, a fetched pack', async () => {
    const dir = initRepo({ 'a.txt': 'a\n' }, join(scratch, 'late'));
    const { value } = await traced('late', async () => {
      const first = await objectInfo(dir, [gitIn(dir, 'rev-parse', 'HEAD')]);
      const blob = sh(dir, 'git', ['hash-object', '-w', '--stdin'], {}).trim();
      writeFiles(dir, { 'a.txt': 'b\n' });
      const commit = commitAll(dir, 'later');
      // A pack: objects fetched from another repository after the reader's first answer.
      gitIn(dir, '-c', 'fetch.unpackLimit=1', 'fetch', '-q', other, 'HEAD:refs/heads/fetched');
      const fetched = gitIn(dir, 'rev-parse', 'refs/heads/fetched');
      const later = await objectInfo(dir, [blob, commit, fetched, `${fetched}:x.txt`]);
      return { first, later };
    });
    expect(value.first[0]?.type).toBe('commit');
    expect(value.later.map((info) => info?.type)).toEqual(['blob', 'commit', 'commit', 'blob']);
  });

  it('never sends a name that is not an object id (a line break would be a second command)', async () => {
    const tree = gitIn(repo, 'rev-parse', 'HEAD^{tree}');
    const names = [`${head}:src/a.ts\ninfo ${tree}`, 'HEAD', '--batch', `${head.slice(0, 12)}`, `${head}:`, `${head}:src/a.ts`];
    const { value } = await traced('names', () => objectInfo(repo, names));
    expect(value.map((info) => info?.type ?? null)).toEqual([null, null, null, null, null, 'blob']);
  });

  it('fails one request past its cap and keeps answering the next ones from the same process', async () => {
    const { value, catFiles } = await traced('cap', async () => {
      const over = await objectContents(repo, [`${head}:src/a.ts`, `${head}:dir with space/b c.txt`], { maxBytes: 4 }).catch(code);
      const after = await objectContents(repo, [`${head}:dir with space/b c.txt`]);
      return { over, after };
    });
    expect(value.over).toBe('git-output-too-large');
    expect(value.after[0]?.content.toString('utf8')).toBe('b\n');
    expect(catFiles).toHaveLength(1);
  });

  it('a narrower signal fails its own request only; the run goes on with the same process', async () => {
    const { value, catFiles } = await traced('share', async () => {
      const share = new AbortController();
      const cut = withRunSignal(share.signal, () => objectContents(repo, [`${head}:src/a.ts`])).catch(code);
      share.abort();
      const kept = await objectContents(repo, [`${head}:src/a.ts`]);
      return { cut: await cut, kept };
    });
    expect(value.cut).toBe('git-cancelled');
    expect(value.kept[0]?.content.toString('utf8')).toBe(text);
    expect(catFiles).toHaveLength(1);
  });

  it('the run signal kills the process: waiting and later requests fail as cancelled', async () => {
    const controller = new AbortController();
    const { value } = await traced(
      'abort',
      async () => {
        await objectInfo(repo, [head]);
        const waiting = objectContents(repo, [`${head}:src/a.ts`]).catch(code);
        controller.abort();
        return { waiting: await waiting, later: await objectInfo(repo, [head]).catch(code) };
      },
      controller,
    );
    expect(value).toEqual({ waiting: 'git-cancelled', later: 'git-cancelled' });
  });

  it('ends with the run', async () => {
    const { trace } = await traced('end', () => objectInfo(repo, [head]));
    const sid = readFileSync(trace, 'utf8')
      .split('\n')
      .filter((line) => line.includes('"event":"start"') && line.includes('cat-file'))
      .map((line) => (JSON.parse(line) as { sid: string }).sid);
    expect(sid).toHaveLength(1);
    // git writes its exit event when it leaves: after the run closed its input, without a kill.
    await vi.waitFor(
      () => expect(readFileSync(trace, 'utf8')).toMatch(new RegExp(`"event":"exit","sid":"${sid[0]!.replace(/[/.]/g, '\\$&')}"[^\\n]*"code":0`)),
      {
        timeout: 20_000,
        interval: 20,
      },
    );
  });
});
