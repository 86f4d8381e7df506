import { parseArgs } from 'node:util';
import { EXIT, isAirspaceError } from '../errors.js';
import { hookMessages } from '../messages/hooks-and-check.js';
import { cliMessages } from '../messages/command-line.js';
import { processOutput } from '../report/output.js';
import { sanitizeText } from '../report/sanitize-text.js';
import { currentDirectory } from './current-directory.js';
import { runHookCheck, type PushedRef } from '../app/hook.js';

/**
 * The fast path the installed git hooks call: `airspace-hooks hook <pre-commit|pre-push> [args]`.
 * It never loads yargs (≈130 ms of start-up) and never lets an internal error stop a commit or a
 * push unless the user asked for `--strict` / `failClosed`. Returns the hook's exit code.
 */
export async function runHook(argv: readonly string[]): Promise<number> {
  const output = processOutput();
  if (process.env.AIRSPACE_HOOKS === '0') return EXIT.ok;
  let parsed: ReturnType<typeof parseHookArgv>;
  try {
    parsed = parseHookArgv(argv);
  } catch (error) {
    output.err(hookMessages.usage((error as Error).message));
    return EXIT.error;
  }
  const [hook, remoteName] = parsed.positionals;
  if (hook !== 'pre-commit' && hook !== 'pre-push') {
    output.err(hookMessages.usage(`unknown hook "${hook ?? ''}"`));
    return EXIT.error;
  }
  const strict = parsed.values.strict === true;
  try {
    const pushed = hook === 'pre-push' ? parsePushedRefs(await readStdin()) : [];
    const budgetMs = budgetFromEnv(process.env.AIRSPACE_HOOKS_BUDGET_MS);
    const cwd = currentDirectory();
    if (cwd === null) {
      output.err(strict ? hookMessages.failedClosed(hook, cliMessages.cwdGone) : hookMessages.failedOpen(hook, cliMessages.cwdGone));
      return strict ? EXIT.steer : EXIT.ok;
    }
    const result = await runHookCheck({
      cwd,
      hook,
      remoteName: remoteName ?? null,
      pushed,
      strict,
      output,
      json: parsed.values.json === true,
      ...(budgetMs !== undefined ? { budgetMs } : {}),
    });
    return result.exitCode;
  } catch (error) {
    // Error text can carry a remote's stderr or a peer's names: printed like any untrusted text.
    const message = sanitizeText(isAirspaceError(error) ? error.message : hookMessages.internal((error as Error)?.message ?? String(error)), {
      maxLength: 500,
    });
    if (strict) {
      output.err(hookMessages.failedClosed(hook, message));
      return EXIT.steer;
    }
    output.err(hookMessages.failedOpen(hook, message));
    return EXIT.ok;
  }
}

/** `<hook> [remote] [--strict] [--json]`; throws on an unknown option. */
function parseHookArgv(argv: readonly string[]) {
  return parseArgs({ args: [...argv], allowPositionals: true, strict: true, options: { strict: { type: 'boolean' }, json: { type: 'boolean' } } });
}

/** AIRSPACE_HOOKS_BUDGET_MS: a whole number of ms from 100 to 10 minutes; anything else is ignored. */
export function budgetFromEnv(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d{3,6}$/.test(value)) return undefined;
  const ms = Number(value);
  return ms >= 100 && ms <= 600_000 ? ms : undefined;
}

/** git feeds pre-push one line per ref: `<local ref> <local sha> <remote ref> <remote sha>`. */
export function parsePushedRefs(text: string): PushedRef[] {
  return text
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter((parts) => parts.length === 4)
    .map(([localRef, localSha, remoteRef, remoteSha]) => ({ localRef: localRef!, localSha: localSha!, remoteRef: remoteRef!, remoteSha: remoteSha! }));
}

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return '';
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) {
    chunks.push(chunk as Buffer);
    if (chunks.reduce((n, c) => n + c.length, 0) > 1024 * 1024) break;
  }
  return Buffer.concat(chunks).toString('utf8');
}
