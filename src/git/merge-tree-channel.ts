import { isAirspaceError } from '../errors.js';
import { gitMessages } from '../messages/command-line.js';
import { runGit } from './exec-git.js';

/** The exact textual-merge channel: would git merge the two lines of work cleanly? */
export interface MergeChannelResult {
  /** 0 clean, 1 conflict, null unknown (see `reason`). */
  readonly value: 0 | 1 | null;
  readonly conflictedPaths: readonly string[];
  readonly reason?: string;
  /** True when git was not asked: the two sides touch no common path, so the merge is clean. */
  readonly inferred?: boolean;
}

const OID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

/**
 * `git merge-tree --write-tree` (git ≥ 2.38) merges two commits in memory: it writes objects only,
 * never the index, the worktree or a ref. Git 2.39 has no `--merge-base` option: it finds the base
 * itself. Exit codes are a trap: 0 = clean, 1 = conflicts — but 1 is ALSO what it returns for an
 * unknown revision ("not something we can merge"). So a conflict is trusted only when stdout starts
 * with the tree id that a real merge result always prints first.
 */
export async function mergeTreeChannel(cwd: string, commitA: string, commitB: string, options: { timeoutMs?: number } = {}): Promise<MergeChannelResult> {
  try {
    const args = ['merge-tree', '--write-tree', '--name-only', '-z', '--no-messages', '--end-of-options', commitA, commitB];
    const result = await runGit(args, { cwd, okCodes: [1], timeoutMs: options.timeoutMs });
    const fields = result.stdout
      .toString('utf8')
      .split('\0')
      .filter((field) => field !== '');
    const [tree, ...paths] = fields;
    if (tree === undefined || !OID.test(tree)) {
      return { value: null, conflictedPaths: [], reason: gitMessages.mergeTreeFailed(firstLine(result.stderr) || `exit ${result.code}`) };
    }
    if (result.code === 0) return { value: 0, conflictedPaths: [] };
    return { value: 1, conflictedPaths: [...new Set(paths)] };
  } catch (error) {
    if (!isAirspaceError(error)) throw error;
    return { value: null, conflictedPaths: [], reason: gitMessages.mergeTreeFailed(error.message) };
  }
}

function firstLine(text: string): string {
  return (
    text
      .split('\n')
      .find((line) => line.trim() !== '')
      ?.trim() ?? ''
  );
}
