import { objectContents, objectInfo } from '../git/read-objects.js';

/**
 * File versions straight from the object store (src/git/read-objects.ts: inside a run, the run's
 * one `cat-file --batch-command` process): contents, and "does this path exist at that commit"
 * (import resolution). Queries are `<commit>:<path>`; one that src/git/read-objects.ts cannot ask (a
 * path with a line break, an empty path, a commit that is not an object id) counts as absent.
 */

export interface BlobQuery {
  readonly commit: string;
  readonly path: string;
}

/** Source files larger than this are generated or bundled: not worth parsing inside a hook. */
const MAX_SOURCE_BYTES = 1024 * 1024;

const queryOf = (q: BlobQuery): string => blobKey(q.commit, q.path);

/** Contents by `commit:path` (absent, oversized or non-UTF-8-safe ones missing from the map). */
export async function readBlobs(cwd: string, queries: readonly BlobQuery[]): Promise<Map<string, string>> {
  const asked = unique(queries.map(queryOf));
  const found = new Map<string, string>();
  if (asked.length === 0) return found;
  (await objectContents(cwd, asked)).forEach((object, index) => {
    const content = object?.content;
    if (content && content.length <= MAX_SOURCE_BYTES && !content.includes(0)) found.set(asked[index]!, content.toString('utf8'));
  });
  return found;
}

/** The queries that name a file (blob) at their commit. */
export async function existingPaths(cwd: string, queries: readonly BlobQuery[]): Promise<Set<string>> {
  const asked = unique(queries.map(queryOf));
  const found = new Set<string>();
  if (asked.length === 0) return found;
  (await objectInfo(cwd, asked)).forEach((info, index) => {
    if (info?.type === 'blob') found.add(asked[index]!);
  });
  return found;
}

export function blobKey(commit: string, path: string): string {
  return `${commit}:${path}`;
}

function unique(list: readonly string[]): string[] {
  return [...new Set(list)];
}
