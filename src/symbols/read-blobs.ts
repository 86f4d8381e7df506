import { parseBatchCheckLine, parseBatchOutput } from '../beacon/cat-file-batch.js';
import { runGit } from '../git/exec-git.js';

/**
 * File versions straight from the object store, many per git process: `cat-file --batch` for
 * contents and `--batch-check` for "does this path exist at that commit" (import resolution).
 * Queries are `<commit>:<path>`; a path with a newline cannot be asked and counts as absent.
 */

export interface BlobQuery {
  readonly commit: string;
  readonly path: string;
}

/** Source files larger than this are generated or bundled: not worth parsing inside a hook. */
const MAX_SOURCE_BYTES = 1024 * 1024;

const queryOf = (q: BlobQuery): string => `${q.commit}:${q.path}`;
const askable = (q: BlobQuery): boolean => !/[\n\r]/.test(q.path) && q.path !== '';

/** Contents by `commit:path` (absent, oversized or non-UTF-8-safe ones missing from the map). */
export async function readBlobs(cwd: string, queries: readonly BlobQuery[]): Promise<Map<string, string>> {
  const asked = unique(queries.filter(askable).map(queryOf));
  const found = new Map<string, string>();
  if (asked.length === 0) return found;
  const { stdout } = await runGit(['cat-file', '--batch'], { cwd, input: asked.map((q) => `${q}\n`).join('') });
  parseBatchOutput(stdout).forEach((content, index) => {
    if (content && content.length <= MAX_SOURCE_BYTES && !content.includes(0)) found.set(asked[index]!, content.toString('utf8'));
  });
  return found;
}

/** The queries that name a file (blob) at their commit. */
export async function existingPaths(cwd: string, queries: readonly BlobQuery[]): Promise<Set<string>> {
  const asked = unique(queries.filter(askable).map(queryOf));
  const found = new Set<string>();
  if (asked.length === 0) return found;
  const { stdout } = await runGit(['cat-file', '--batch-check'], { cwd, input: asked.map((q) => `${q}\n`).join('') });
  stdout
    .toString('utf8')
    .split('\n')
    .slice(0, asked.length)
    .forEach((line, index) => {
      if (parseBatchCheckLine(line)?.type === 'blob') found.add(asked[index]!);
    });
  return found;
}

export function blobKey(commit: string, path: string): string {
  return `${commit}:${path}`;
}

function unique(list: readonly string[]): string[] {
  return [...new Set(list)];
}
