/** Wording of the demo's story and timeline. */
export const demoMessages = {
  install: 'installs the hooks (airspace-hooks install)',
  push: (branch: string) => `git push origin ${branch}`,
  intent: (path: string) => `declares intent: ${path}`,
  check: 'airspace-hooks check',
  inbox: 'airspace-hooks inbox',
  steer: 'steers: moves its change out of the contested lines into a module of its own',
  merge: (branch: string) => `merge ${branch} into main`,
  notPushed: (branch: string) => `${branch} was never pushed: nothing to land`,
  clearIntent: 'airspace-hooks intent clear',
  adapt: "adapts: builds on dana's pushed work and passes the retry count (airspace-hooks check)",
  steps: {
    farApart: '1. Far apart: four agents in four corners of the code',
    converging: '2. Converging: cy declares it will touch src/auth/session.ts (intent exchanged)',
    imminent: '3. Collision imminent: cy edits the lines ada just pushed',
    steered: '4. cy steers away and pushes again',
    signature: "5. Caught before the build breaks: dana changes the signature of connect, bob's new code calls it",
    landed: '6. Everyone lands on main',
  },
  building: (root: string) => `building the demo airspace in ${root} …`,
  stepHeader: (title: string, ta: number, ra: number) => `\n${title}   [${ta} TA, ${ra} RA]`,
  outcome: (code: number | undefined) => (code === undefined ? '' : code === 0 ? 'ok' : `exit ${code}`),
  summary: (blocked: readonly string[], conflicts: number, landed: number, total: number) =>
    `\nresult: ${blocked.length === 0 ? 'no push blocked' : `push blocked for ${blocked.join(', ')} (Resolution Advisory), then steered`}; ` +
    `${landed}/${total} lines of work landed with ${conflicts} merge conflict${conflicts === 1 ? '' : 's'}`,
  radar: (file: string) => `radar of every step: ${file}  (open it in a browser; use the step slider)`,
};
