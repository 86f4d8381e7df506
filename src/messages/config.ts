/** Wording of configuration errors: one line, naming the file, the key and what was expected. */
export const configMessages = {
  unreadable: (path: string, reason: string) => `cannot read config ${path}: ${reason}`,
  invalidJson: (path: string, reason: string) => `config ${path} is not valid JSON: ${reason}`,
  invalidValue: (source: string, key: string, expected: string, received: string) => `config ${source}: "${key}" must be ${expected} (got ${received})`,
  tooLarge: (path: string, bytes: number, limit: number) => `config ${path} is ${bytes} bytes; the limit is ${limit} bytes`,
  thresholdsCrossed: (source: string, tauTA: number, tauRA: number, which: string) =>
    `config ${source}: model.tauTA (${tauTA}) must be below model.tauRA (${tauRA}); ${which}`,
  worktreesUnsupported: (source: string) =>
    `config ${source}: "peers.worktrees" is not supported: other worktrees of this repository are always traffic (their uncommitted work is the collision seen earliest); remove the key`,
  globExpected: (length: number, wildcards: number, alternatives: number) =>
    `a glob of at most ${length} characters and ${wildcards} wildcards (*, **, ?), with at most ${alternatives} {a,b} alternatives and no extglob, ( | ) group, POSIX class or {1..9} range`,
  twoConfigs: (used: string, other: string) => `config: both ${used} and ${other} exist; airspace-hooks reads only one, so keep one and delete the other`,
};
