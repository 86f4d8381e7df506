import { isAbsolute, resolve } from 'node:path';
import { AirspaceError } from '../errors.js';
import { gitMessages } from '../messages/command-line.js';
import { git, runGit } from './exec-git.js';

/** Where a worktree lives and what its HEAD is, from one `git rev-parse` call. */
export interface RepoInfo {
  /** Absolute worktree root. */
  readonly toplevel: string;
  /** Absolute git dir of this worktree (`.git`, or `.git/worktrees/<name>` for a linked one). */
  readonly gitDir: string;
  /** Absolute common git dir (objects, refs, config; our `airspace/` cache lives here). */
  readonly commonDir: string;
  /** Absolute path of the index git uses here (GIT_INDEX_FILE when inherited). */
  readonly indexFile: string;
  /**
   * The directory git runs this worktree's hooks from: `<common dir>/hooks`, or where core.hooksPath
   * sends it at whatever config level (a relative one resolved against the worktree, as git runs hooks).
   */
  readonly hooksDir: string;
  /** HEAD commit, or null when the branch has no commits yet. */
  readonly head: string | null;
  /** Short branch name (`feature/x`), or null when HEAD is detached. */
  readonly branch: string | null;
  readonly isShallow: boolean;
  readonly isBare: boolean;
}

export interface ResolveRepoOptions {
  /** True for the ownship inside a hook: see `inheritRepoEnv` in exec-git.ts. */
  readonly inheritRepoEnv?: boolean;
}

const FLAGS = [
  'rev-parse',
  '--is-bare-repository',
  '--is-shallow-repository',
  '--absolute-git-dir',
  '--git-common-dir',
  '--git-path',
  'index',
  // Sticky too: absolute for the hooks dir (and --show-toplevel, absolute anyway), not for the index above.
  '--path-format=absolute',
  '--git-path',
  'hooks',
  '--show-toplevel',
  // Flags of rev-parse are sticky: the plain HEAD (sha) must come before --symbolic-full-name.
  'HEAD',
  '--symbolic-full-name',
  'HEAD',
];

/**
 * One `git rev-parse` answers everything. Exit 128 with a partial answer is meaningful: it stops at
 * the first argument it cannot answer (`--show-toplevel` in a bare repo, `HEAD` before the first
 * commit), so the number of lines printed tells which case we are in.
 */
export async function resolveRepo(cwd: string, options: ResolveRepoOptions = {}): Promise<RepoInfo> {
  // userHooks: `--git-path hooks` must name the user's hooks dir, not HOOKLESS's /dev/null
  // (exec-git.ts); rev-parse runs no hook either way.
  const result = await runGit(FLAGS, { cwd, okCodes: [128], inheritRepoEnv: options.inheritRepoEnv, userHooks: true });
  const lines = result.stdout.toString('utf8').split('\n');
  if (lines.at(-1) === '') lines.pop();
  const [bare, shallow, gitDir, commonDir, indexFile, hooksDir, toplevel, head, symbolic] = lines;
  if (bare === undefined || shallow === undefined || gitDir === undefined || commonDir === undefined || indexFile === undefined || hooksDir === undefined) {
    throw new AirspaceError('environment', 'not-a-repository', gitMessages.notARepository(cwd), { stderr: result.stderr });
  }
  if (bare === 'true') throw new AirspaceError('environment', 'bare-repository', gitMessages.bareRepository(gitDir));
  if (toplevel === undefined) throw new AirspaceError('environment', 'not-in-worktree', gitMessages.notInWorktree(cwd));
  const base = {
    toplevel,
    gitDir,
    commonDir: absolute(cwd, commonDir),
    indexFile: absolute(cwd, indexFile),
    hooksDir,
    isShallow: shallow === 'true',
    isBare: false,
  };
  if (result.code === 0 && head !== undefined && symbolic !== undefined) {
    return { ...base, head, branch: shortBranch(symbolic) };
  }
  // No commits yet: HEAD names an unborn branch that rev-parse cannot resolve; symbolic-ref can.
  const ref = await git(['symbolic-ref', '-q', 'HEAD'], { cwd, okCodes: [1], inheritRepoEnv: options.inheritRepoEnv });
  return { ...base, head: null, branch: ref === '' ? null : shortBranch(ref) };
}

function absolute(cwd: string, path: string): string {
  return isAbsolute(path) ? path : resolve(cwd, path);
}

/** `refs/heads/feature/x` → `feature/x`; a detached HEAD prints `HEAD` → null. */
function shortBranch(symbolic: string): string | null {
  return symbolic.startsWith('refs/heads/') ? symbolic.slice('refs/heads/'.length) : null;
}
