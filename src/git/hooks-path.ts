import { gitZ } from './exec-git.js';

/** `core.hooksPath` as git resolves it for one worktree, with the config level that set it. */
export interface HooksPathSetting {
  /** The value in effect (`--type=path`: `~/` expanded); relative values are relative to the worktree. */
  readonly value: string;
  /** The level of the winning entry: `system`, `global`, `local`, `worktree` or `command`. */
  readonly scope: string;
  /** Where git read it, e.g. `file:/repo/.git/worktrees/wt/config.worktree`. */
  readonly origin: string;
}

/**
 * One `git config` process per worktree, run in that worktree so every level counts as git will
 * count it when it runs a hook there: system, global, the shared `.git/config`, the worktree's own
 * `config.worktree` (only with `extensions.worktreeConfig`, which harnesses such as Claude Code set
 * to give an agent worktree a hooksPath of its own), includes and `includeIf` included. The last
 * entry wins, as in git. Null: unset at every level (git runs `<common dir>/hooks`).
 * `userHooks`: the user's value, not the /dev/null our other calls pin (exec-git.ts HOOKLESS).
 * Exit 1 is "not set"; nothing is cached, since any of those files can change between two commits.
 */
export async function readHooksPath(worktree: string): Promise<HooksPathSetting | null> {
  const fields = await gitZ(['config', '--show-scope', '--show-origin', '--type=path', '--get-all', '-z', 'core.hooksPath'], {
    cwd: worktree,
    okCodes: [1],
    userHooks: true,
  });
  // -z with --show-scope --show-origin: scope NUL origin NUL value NUL, per entry.
  if (fields.length < 3) return null;
  const [scope = '', origin = '', value = ''] = fields.slice(-3);
  return value === '' ? null : { value, scope, origin };
}
