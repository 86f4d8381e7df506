/** Progress lines and notes of the scan pipeline. */
export const runMessages = {
  fetching: (remote: string) => `fetching traffic from ${remote}…`,
  discovering: 'reading worktrees, peer branches and working sets…',
  mergeConflictEvidence: (paths: readonly string[]) =>
    `git merge-tree: the two current states conflict in ${paths.slice(0, 3).join(', ')}${paths.length > 3 ? ` and ${paths.length - 3} more` : ''}`,
  scoring: (pairs: number) => `scoring ${pairs} pair${pairs === 1 ? '' : 's'}…`,
  messageText: (files: string, subjects: string, intent: string) =>
    [files && `touching ${files}`, subjects && `commits: ${subjects}`, intent && `intent: ${intent}`].filter(Boolean).join('; '),
};
