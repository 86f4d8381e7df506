/** The reason words of src/beacon/safe-repo-path.ts, in a user's terms. */
const PROBLEM_WORDS: Readonly<Record<string, string>> = {
  empty: 'it is empty',
  'too-long': 'it is too long',
  absolute: 'it is absolute',
  backslash: 'it contains a backslash; use / between folders',
  nul: 'it contains a NUL character',
  control: 'it contains control characters',
  bidi: 'it contains invisible or bidi characters',
  'dot-segment': 'it contains a . or .. segment',
  'empty-segment': 'it contains an empty segment (//)',
  'git-dir': 'it is inside .git',
};

export const intentMessages = {
  outsideWorktree: (input: string, toplevel: string) => `intent add: ${input} is outside this worktree (${toplevel}); declare files of this repository`,
  notAFile: (input: string, problem: string) =>
    `intent add: ${JSON.stringify(input)} is not a file path inside this repository: ${PROBLEM_WORDS[problem] ?? problem}`,
  tooMany: (declared: number, adding: number, max: number) =>
    `intent add: intent holds at most ${max} files; ${declared} declared + ${adding} new would be ${declared + adding}. Nothing was added: declare fewer, or clear some with \`airspace-hooks intent clear PATH…\``,
  needPaths: 'airspace-hooks intent add: name the files you are about to touch',
  badTtl: (value: string) => `airspace-hooks intent add: --ttl takes a number of minutes greater than 0, not ${JSON.stringify(value)}`,
  ttlOnlyForAdd: 'airspace-hooks intent: --ttl goes with intent add',
  list: (action: string, paths: readonly string[]) =>
    paths.length === 0
      ? action === 'clear'
        ? 'intent cleared'
        : 'no declared intent'
      : `${action === 'clear' ? 'intent left' : 'declared intent'} (${paths.length}):\n${paths.map((p) => `  ${p}`).join('\n')}`,
};
