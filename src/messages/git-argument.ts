/**
 * Wording of refused git arguments (src/git/git-argument.ts). The value is hostile by assumption:
 * shown JSON-quoted (control characters escaped) and cut short.
 */
const what = {
  remote: 'a remote name (like origin)',
  trunk: 'a branch or ref name (like main or origin/main)',
  revision: 'a revision (a branch, tag or commit; not an option, one line)',
  agent: 'an agent name (printable, one line, not starting with "-")',
} as const;

function shown(value: string): string {
  return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
}

export const argumentMessages = {
  refused: (kind: keyof typeof what, value: string, source?: string) =>
    `refused ${shown(value)}${source ? ` from ${source}` : ''}: must be ${what[kind]} (a value git could read as an option is never passed to git)`,
  /** For the config schema's issue text (`"remote" must be …`). */
  expected: (kind: keyof typeof what) => what[kind],
} as const;
