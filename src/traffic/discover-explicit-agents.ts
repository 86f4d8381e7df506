import { AirspaceError } from '../errors.js';
import { runGit } from '../git/exec-git.js';
import { requireSafe } from '../git/git-argument.js';
import { gitMessages, usageMessages } from '../messages/command-line.js';

export interface ExplicitAgent {
  readonly id: string;
  readonly rev: string;
  readonly sha: string;
}

/** `NAME=REV` → { name, rev }; the name may itself contain `=`-free slashes (`feature/x=abc123`). */
export function parseAgentSpec(spec: string): { id: string; rev: string } {
  const at = spec.indexOf('=');
  const id = at > 0 ? spec.slice(0, at).trim() : '';
  const rev = at > 0 ? spec.slice(at + 1).trim() : '';
  if (id === '' || rev === '') throw new AirspaceError('usage', 'agent-spec', gitMessages.agentSpecInvalid(spec));
  // REV is one line of `cat-file --batch-check` stdin: a newline would shift every answer after it.
  return { id: requireSafe('agent', id, '--agent'), rev: requireSafe('revision', rev, '--agent') };
}

/**
 * Every `--agent NAME=REV`, checked as a whole: a NAME given twice is a usage error here, before
 * discovery, rather than an engine error about a pair of the same agent later.
 */
export function parseAgentSpecs(specs: readonly string[]): { id: string; rev: string }[] {
  const parsed = specs.map(parseAgentSpec);
  const seen = new Map<string, string>();
  for (const { id, rev } of parsed) {
    const first = seen.get(id);
    if (first !== undefined) throw new AirspaceError('usage', 'agent-duplicate', usageMessages.duplicateAgent(id, first, rev));
    seen.set(id, rev);
  }
  return parsed;
}

/**
 * `--agent NAME=REV` agents, any revision (branch, tag, sha, `HEAD~3`), resolved to commits in ONE
 * `git cat-file --batch-check` (one revision per stdin line, `<rev>^{commit}` peels tags).
 * A revision that does not exist here is reported, not dropped.
 */
export async function resolveExplicitAgents(
  cwd: string,
  specs: readonly string[],
): Promise<{ agents: ExplicitAgent[]; unknown: { id: string; reason: string }[] }> {
  const parsed = parseAgentSpecs(specs);
  if (parsed.length === 0) return { agents: [], unknown: [] };
  const input = parsed.map(({ rev }) => `${rev}^{commit}\n`).join('');
  const { stdout } = await runGit(['cat-file', '--batch-check=%(objectname) %(objecttype)'], { cwd, input });
  const lines = stdout.toString('utf8').split('\n');
  const agents: ExplicitAgent[] = [];
  const unknown: { id: string; reason: string }[] = [];
  parsed.forEach(({ id, rev }, index) => {
    const [sha = '', type = ''] = (lines[index] ?? '').split(' ');
    if (type === 'commit') agents.push({ id, rev, sha });
    else unknown.push({ id, reason: gitMessages.revisionUnknown(rev) });
  });
  return { agents, unknown };
}
