/** Sentences of the object reader (src/git/object-session.ts): errors of one `cat-file --batch-command`. */
export const gitObjectMessages = {
  endedEarly: 'git cat-file --batch-command ended before it answered every request',
  unasked: 'git cat-file --batch-command printed an answer nobody asked for',
  timedOut: (ms: number) => `git cat-file --batch-command did not answer within ${ms} ms`,
} as const;
