import { bypass } from './check.js';

export const hookMessages = {
  /**
   * A push of several refs blocked for some of them: git refuses the whole push when pre-push
   * exits non-zero, so the refs that were fine did not go either. `refspecs` push exactly those.
   */
  heldBack: (names: readonly string[], remote: string | null, refspecs: readonly string[]) =>
    `airspace-hooks: git refuses the whole push, so ${names.join(', ')} ${names.length === 1 ? 'was' : 'were'} not pushed either` +
    (remote !== null ? `; to push ${names.length === 1 ? 'it' : 'them'} alone: git push ${remote} ${refspecs.join(' ')}` : ''),
  usage: (detail: string) => `airspace-hooks hook: ${detail} (expected: hook pre-commit | hook pre-push <remote> <url>)`,
  internal: (detail: string) => `internal error: ${detail}`,
  failedOpen: (hook: string, detail: string) => `airspace-hooks: ${hook} check skipped (${detail}); letting it through`,
  failedClosed: (hook: string, detail: string) => `airspace-hooks: ${hook} check failed (${detail}); blocking because --strict is set. Bypass: ${bypass(hook)}`,
  fetchFailedClosed: (reason: string) =>
    `airspace-hooks: could not fetch the traffic (${reason}); blocking because pre-push.failClosed is set. Bypass: ${bypass('pre-push')}`,
  nothingToCheck: 'airspace-hooks: nothing to check (only deletions or tags are pushed)',
  cutOpen: (hook: string, detail: string) => `airspace-hooks: ${hook} ${detail}; letting it through`,
  cutClosed: (hook: string, detail: string) => `airspace-hooks: ${hook} ${detail}; blocking because failClosed is set. Bypass: ${bypass(hook)}`,
};
