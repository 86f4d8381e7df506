import { runGit } from './exec-git.js';

/** One path a commit changed against a base, as `diff-tree --raw --no-renames` reports it. */
export interface RawChange {
  readonly path: string;
  /** git's letter: A, M, D, T (type change), U… (no R or C: rename detection is off). */
  readonly status: string;
  readonly baseMode: string;
  readonly mode: string;
  readonly baseBlob: string;
  readonly blob: string;
}

export interface RawRequest {
  readonly base: string;
  readonly target: string;
}

export const rawKey = (request: RawRequest): string => `${request.base} ${request.target}`;

const OID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

/**
 * The changed paths of many (base, target) commit pairs, with both modes and object ids, from ONE
 * `diff-tree --stdin` (`<target> <base>` lines, `--always` prints each `<target>\0` header even
 * for an empty diff). No rename detection: what a three-way merge would see as a rename is left for
 * the caller to rule out (a deletion and an addition on one side), not guessed here. A record is
 * `:<mode> <mode> <oid> <oid> <letter>\0<path>\0`, so a path is always read as a path, never as the
 * next header. A request whose chunk cannot be found is absent from the map.
 */
export async function rawChangesBatch(cwd: string, requests: readonly RawRequest[]): Promise<Map<string, RawChange[]>> {
  const unique = [...new Map(requests.filter((r) => OID.test(r.base) && OID.test(r.target)).map((r) => [rawKey(r), r])).values()];
  const results = new Map<string, RawChange[]>();
  if (unique.length === 0) return results;
  const input = unique.map((request) => `${request.target} ${request.base}\n`).join('');
  const args = ['diff-tree', '--stdin', '--always', '-r', '-z', '--raw', '--no-renames', '--no-abbrev', '--ignore-submodules=none'];
  const { stdout } = await runGit(args, { cwd, input });
  const fields = stdout.toString('utf8').split('\0');
  let at = 0;
  for (const request of unique) {
    if (fields[at] !== request.target) break;
    at++;
    const changes: RawChange[] = [];
    while (at + 1 < fields.length && fields[at]!.startsWith(':')) {
      const [baseMode = '', mode = '', baseBlob = '', blob = '', status = ''] = fields[at]!.slice(1).split(' ');
      changes.push({ path: fields[at + 1]!, status: status.charAt(0), baseMode, mode, baseBlob, blob });
      at += 2;
    }
    results.set(rawKey(request), changes);
  }
  return results;
}
