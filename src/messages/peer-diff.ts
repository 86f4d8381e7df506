/** Sentences of `diff PEER [FILE]` and the MCP `peer_diff` tool. Peer-supplied text arrives sanitized. */
export const peerDiffMessages = {
  notFound: (peer: string, known: readonly string[]) =>
    `no peer "${peer}" in this airspace${known.length ? ` (known: ${known.join(', ')})` : ' (no worktree, active branch or beacon found)'}`,
  ambiguous: (peer: string, matches: readonly string[]) => `"${peer}" names several peers: ${matches.join(', ')}; use the full id`,
  noOwnship: 'this directory is no worktree with commits: there is no own work to compare with',
  noBase: (peer: string, reason: string) => `no common base with ${peer}: ${reason}`,
  beaconWorkMissing: (peer: string) => `the work behind ${peer}'s beacon is not here; run \`git fetch\` (the hooks fetch it on pre-push)`,
  badNumber: (name: string, value: number) => `--${name} must be a whole number from 0 to 100000 (got ${value})`,
  header: (peer: string, source: string, files: number, near: number) =>
    `${peer} (${source}): ${files === 0 ? 'no hunks' : `hunks in ${files} file${files === 1 ? '' : 's'}`} within ${near} lines of your changes`,
  fileLine: (path: string, own: string, uncommitted: boolean) => `--- ${path}   yours: ${own}${uncommitted ? '   (includes their uncommitted work)' : ''}`,
  ownWhole: 'whole file',
  ownNone: 'untouched (all their hunks shown)',
  subjects: (subjects: readonly string[]) => `    their commits: ${subjects.map((s) => `"${s}"`).join(', ')}`,
  binary: '    binary file changed',
  cut: (files: number, hunks: number, bytes: number) =>
    `(cut to stay small: ${[files ? `${files} file${files === 1 ? '' : 's'} too large` : '', hunks ? `${hunks} more hunk${hunks === 1 ? '' : 's'}` : '', bytes ? `${bytes} bytes of lines` : ''].filter(Boolean).join(', ')}; narrow with FILE or raise --max-hunks / --max-bytes)`,
};
