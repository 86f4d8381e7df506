import { runGit } from './exec-git.js';
import { runResource } from './run-scope.js';

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
  const memo = runMemo();
  const results = new Map<string, RawChange[]>();
  const asked = new Map<string, RawRequest>();
  for (const request of requests) {
    if (!OID.test(request.base) || !OID.test(request.target)) continue;
    const key = rawKey(request);
    const known = memo?.changes.get(key);
    if (known) results.set(key, known);
    else asked.set(key, request);
  }
  const unique = [...asked.values()];
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
      changes.push(rawChange(fields[at]!, fields[at + 1]!));
      at += 2;
    }
    results.set(rawKey(request), changes);
  }
  return results;
}

function rawChange(record: string, path: string): RawChange {
  const [baseMode = '', mode = '', baseBlob = '', blob = '', status = ''] = record.slice(1).split(' ');
  return { path, status: status.charAt(0), baseMode, mode, baseBlob, blob };
}

/**
 * What a diff with hunks of the same run already said (src/git/diff-working-set.ts, the beacon fold's
 * one diff of every beacon's work from its base): the merge batch asks for the same (base, work) pairs,
 * and in the busiest area that second walk of 500 diffs was ~0.1 s on the critical path
 * (docs/decisions/beacon-areas.md, "The busiest pusher, cold"). Only a diff without a rename is
 * remembered: its `--raw` records are then exactly what `--no-renames` prints — rename detection only
 * ever pairs a deletion with an addition, in place — so the answer is git's own either way. Outside a
 * run nothing is remembered.
 *
 * `fields` is the diff's output for one request, split at NUL: its `--raw` records, then anything
 * else (the patch), which ends the records.
 */
export function rememberRawChanges(request: RawRequest, fields: readonly string[]): void {
  const memo = runMemo();
  // A run that diffs far more than any merge batch asks (a replay of a long history) keeps what it has.
  if (!memo || memo.changes.size >= MAX_REMEMBERED || !OID.test(request.base) || !OID.test(request.target)) return;
  const changes: RawChange[] = [];
  for (let at = 0; at + 1 < fields.length && fields[at]!.startsWith(':'); at += 2) {
    const change = rawChange(fields[at]!, fields[at + 1]!);
    // A rename or copy (two paths in its record) is not what `--no-renames` says: asked again.
    if (!NO_RENAME_STATUS.test(change.status)) return;
    changes.push(change);
  }
  memo.changes.set(rawKey(request), changes);
}

const MAX_REMEMBERED = 20_000;
// The letters `--no-renames` prints (A, D, M, T; U and X never reach a diff of two commits).
const NO_RENAME_STATUS = /^[ADMT]$/;

class RawMemo {
  readonly changes = new Map<string, RawChange[]>();
  close(): void {
    this.changes.clear();
  }
}

const runMemo = (): RawMemo | undefined => runResource('raw-changes', () => new RawMemo());
