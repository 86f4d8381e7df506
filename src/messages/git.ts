/**
 * User-facing sentences of the git layer: error lines and the reasons attached to "unknown"
 * comparisons. The report prints them as they are; keep each to one line.
 */
export const gitMessages = {
  notARepository: (cwd: string) => `not a git repository: ${cwd}`,
  bareRepository: (dir: string) => `${dir} is a bare repository; airspace-hooks needs a worktree`,
  notInWorktree: (cwd: string) => `${cwd} is inside the git directory, not in a worktree`,
  snapshotFailed: (detail: string) => `could not snapshot uncommitted work: ${detail}`,
  noMergeBase: (a: string, b: string) => `${a} and ${b} have no common history (no merge-base)`,
  mergeBaseFailed: (a: string, b: string, detail: string) => `merge-base of ${a} and ${b} failed: ${detail}`,
  mergeTreeFailed: (detail: string) => `git merge-tree could not compare the two lines of work: ${detail}`,
  shallowClone: 'the clone is shallow: merge-bases and commit counts may miss history cut off by the clone',
  diffUnparsed: 'git diff output did not match its file list; every file counted as a whole-file edit',
  revisionUnknown: (rev: string) => `revision ${rev} does not exist here (not fetched?)`,
  agentSpecInvalid: (spec: string) => `agent "${spec}" must look like NAME=REV (for example feature/x=origin/feature/x)`,
  worktreeMissing: (path: string) => `worktree ${path} is missing on disk (prunable); skipped`,
  worktreeBare: (path: string) => `worktree ${path} is the bare main repository; skipped`,
  worktreeFailed: (path: string, detail: string) => `worktree ${path} could not be read: ${detail}`,
  worktreeNoGitDir: 'its .git file does not name a git directory',
  worktreeUnborn: (path: string) => `worktree ${path} has no commits yet; nothing to compare against`,
  peerFailed: (id: string, detail: string) => `${id} could not be compared: ${detail}`,
  ownshipUnborn: 'this worktree has no commits yet; only its uncommitted files are compared',
  fetchFailed: (remote: string, detail: string) => `git fetch ${remote} failed: ${detail}`,
  fetchTimedOut: (remote: string, ms: number) => `git fetch ${remote} took longer than ${ms} ms and was stopped`,
  noRemote: (remote: string) => `no remote named ${remote}; only local worktrees and branches are traffic`,
  trunkMissing: (trunk: string) => `trunk ${trunk} does not exist here`,
} as const;
