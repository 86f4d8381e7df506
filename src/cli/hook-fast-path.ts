import { parseArgs } from 'node:util';
import { askResident, findCommonDir, plainEnvironment, residentWanted, STARTABLE, type HookAnswer, type PushedRefLine } from '../app/ask-resident.js';
import { pushIsDryRun } from './push-invocation.js';

/**
 * The first thing `airspace-hooks hook …` does (bin/airspace-hooks.js): ask the repository's
 * resident process, which runs the same pipeline warm (docs/decisions/resident.md). It loads only
 * node built-ins and the client; anything unusual — no resident, another build, a busy or silent
 * one, arguments it does not know — hands over to the one-shot path (src/cli/hook-entry.ts) with
 * what it already read, so the hook is never slower than that path by more than a refused connect.
 */
export type FastPathResult = { readonly exitCode: number } | { readonly fallback: HookFallback };

/** What the one-shot path needs from the fast path that gave up. */
export interface HookFallback {
  /** pre-push's stdin, already consumed here. */
  readonly stdin?: string;
  /** No usable resident (none, dead, another build): the one-shot run should start one. */
  readonly startResident: boolean;
  /** pre-push under `git push --dry-run`, when already found out (src/cli/push-invocation.ts). */
  readonly dryRun?: boolean;
}

export async function hookFromResident(argv: readonly string[]): Promise<FastPathResult> {
  const env = process.env;
  if (env.AIRSPACE_HOOKS === '0' || !residentWanted(env)) return { fallback: { startResident: false } };
  let parsed: ReturnType<typeof parseHookArgv>;
  let cwd: string;
  try {
    parsed = parseHookArgv(argv);
    cwd = process.cwd();
  } catch {
    return { fallback: { startResident: false } };
  }
  const [hook, remote] = parsed.positionals;
  if (hook !== 'pre-commit' && hook !== 'pre-push') return { fallback: { startResident: false } };
  const stdin = hook === 'pre-push' ? await readStdin() : undefined;
  const keep = stdin !== undefined ? { stdin } : {};
  // A dry run publishes nothing: the one-shot path judges it (rare enough not to teach the resident).
  if (hook === 'pre-push' && pushIsDryRun()) return { fallback: { ...keep, startResident: false, dryRun: true } };
  const commonDir = findCommonDir(cwd, env);
  if (commonDir === null) return { fallback: { ...keep, startResident: false } };
  const budgetMs = budgetFromEnv(env.AIRSPACE_HOOKS_BUDGET_MS);
  const asked = await askResident(commonDir, {
    type: 'hook',
    hook,
    remote: remote ?? null,
    pushed: hook === 'pre-push' ? parsePushedRefs(stdin ?? '') : [],
    strict: parsed.values.strict === true,
    json: parsed.values.json === true,
    cwd,
    env: plainEnvironment(env),
    elapsedMs: performance.now(),
    ...(budgetMs !== undefined ? { budgetMs } : {}),
    tty: { out: process.stdout.isTTY === true, err: process.stderr.isTTY === true },
  });
  const answer = asked.ok ? hookAnswer(asked.answer) : null;
  if (answer === null) return { fallback: { ...keep, startResident: !asked.ok && STARTABLE.includes(asked.reason) } };
  for (const line of answer.out) process.stdout.write(line.endsWith('\n') ? line : `${line}\n`);
  for (const line of answer.err) process.stderr.write(line.endsWith('\n') ? line : `${line}\n`);
  return { exitCode: answer.exitCode };
}

/** `<hook> [remote] [--strict] [--json]`; throws on an unknown option. */
export function parseHookArgv(argv: readonly string[]) {
  return parseArgs({ args: [...argv], allowPositionals: true, strict: true, options: { strict: { type: 'boolean' }, json: { type: 'boolean' } } });
}

/** AIRSPACE_HOOKS_BUDGET_MS: a whole number of ms from 100 to 10 minutes; anything else is ignored. */
export function budgetFromEnv(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d{3,6}$/.test(value)) return undefined;
  const ms = Number(value);
  return ms >= 100 && ms <= 600_000 ? ms : undefined;
}

/** git feeds pre-push one line per ref: `<local ref> <local sha> <remote ref> <remote sha>`. */
export function parsePushedRefs(text: string): PushedRefLine[] {
  return text
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter((parts) => parts.length === 4)
    .map(([localRef, localSha, remoteRef, remoteSha]) => ({ localRef: localRef!, localSha: localSha!, remoteRef: remoteRef!, remoteSha: remoteSha! }));
}

export async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return '';
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) {
    chunks.push(chunk as Buffer);
    if (chunks.reduce((n, c) => n + c.length, 0) > 1024 * 1024) break;
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The resident's answer, if it has the shape of one; anything else is a reason to run here. */
function hookAnswer(value: unknown): HookAnswer | null {
  const answer = value as Partial<HookAnswer> | null;
  if (answer === null || typeof answer !== 'object' || typeof answer.exitCode !== 'number') return null;
  const lines = (list: unknown) => Array.isArray(list) && list.every((line) => typeof line === 'string');
  return lines(answer.out) && lines(answer.err) ? (answer as HookAnswer) : null;
}
