import { runGit } from './exec-git.js';

/**
 * The trunk between the commits lines of work leave it at (src/traffic/every-pair.ts, "Lines that
 * left the trunk at different commits"): where each of them sits on the trunk's first-parent
 * chain, and which paths changed between two neighbours on it.
 */

/**
 * Position on `trunk`'s first-parent chain (0 = the oldest of `commits` found there, increasing
 * toward the tip) of each of `commits` that lies on it; a commit that does not (on a merged side
 * branch, or not in the trunk at all) is absent. One `rev-list`, the trunk named on stdin (never
 * parsed as an option); its output is scanned only until every commit was found.
 */
export async function firstParentPositions(cwd: string, trunk: string, commits: ReadonlySet<string>): Promise<Map<string, number>> {
  const found: string[] = [];
  if (commits.size === 0) return new Map();
  const { stdout } = await runGit(['rev-list', '--first-parent', '--stdin'], { cwd, input: `${trunk}\n` });
  const text = stdout.toString('utf8');
  for (let at = 0; at < text.length && found.length < commits.size; ) {
    const end = text.indexOf('\n', at);
    const sha = text.slice(at, end < 0 ? text.length : end);
    if (commits.has(sha)) found.push(sha);
    at = end < 0 ? text.length : end + 1;
  }
  // rev-list prints the tip first.
  return new Map(found.map((sha, i) => [sha, found.length - 1 - i]));
}

export interface TrunkStep {
  /** Every path that differs between the two commits (no rename pairing: both paths of a move). */
  readonly paths: readonly string[];
  /** The paths present before and absent after (deleted or moved away). */
  readonly deleted: readonly string[];
}

/**
 * The paths that changed from each commit to the next one of `chain`, in ONE `diff-tree --stdin`
 * (`<to> <from>` lines, `--always` prints each `<to>\0` header even for an empty step). Step t is
 * chain[t] → chain[t + 1]. The ids come from git itself (full object ids), never from a user.
 */
export async function trunkSteps(cwd: string, chain: readonly string[]): Promise<TrunkStep[]> {
  if (chain.length < 2) return [];
  const input = chain
    .slice(1)
    .map((to, t) => `${to} ${chain[t]}\n`)
    .join('');
  const { stdout } = await runGit(['diff-tree', '--stdin', '--always', '-r', '--name-status', '-z', '--no-renames'], { cwd, input });
  const fields = stdout.toString('utf8').split('\0');
  const steps: TrunkStep[] = [];
  let at = 0;
  for (let t = 1; t < chain.length; t++) {
    if (fields[at] !== chain[t]) throw new Error(`diff-tree --stdin: expected ${chain[t]}, got ${fields[at] ?? 'end of output'}`);
    at++;
    const next = chain[t + 1];
    const paths: string[] = [];
    const deleted: string[] = [];
    // `<status>\0<path>\0` entries; a status is one letter, so it is never the next header (a full id).
    while (at + 1 < fields.length && fields[at] !== '' && fields[at] !== next) {
      const status = fields[at]!;
      const path = fields[at + 1]!;
      paths.push(path);
      if (status === 'D') deleted.push(path);
      at += 2;
    }
    if (fields[at] === '' && next !== undefined) at++;
    steps.push({ paths, deleted });
  }
  return steps;
}
