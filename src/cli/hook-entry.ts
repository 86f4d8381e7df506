import { EXIT, isAirspaceError } from '../errors.js';
import { hookMessages } from '../messages/hooks-and-check.js';
import { cliMessages } from '../messages/command-line.js';
import { processOutput } from '../report/output.js';
import { sanitizeText } from '../report/sanitize-text.js';
import { currentDirectory } from './current-directory.js';
import { runHookCheck } from '../app/hook.js';
import { startResidentIfWanted } from '../app/resident.js';
import { budgetFromEnv, parseHookArgv, parsePushedRefs, readStdin, type HookFallback } from './hook-fast-path.js';
import { pushIsDryRun } from './push-invocation.js';

/**
 * The one-shot path the installed git hooks take when the resident process could not answer
 * (src/cli/hook-fast-path.ts): `airspace-hooks hook <pre-commit|pre-push> [args]`. It never loads
 * yargs (≈130 ms of start-up) and never lets an internal error stop a commit or a push unless the
 * user asked for `--strict` / `failClosed`. Returns the hook's exit code.
 */
export async function runHook(argv: readonly string[], fallback: HookFallback = { startResident: false }): Promise<number> {
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
    const pushed = hook === 'pre-push' ? parsePushedRefs(fallback.stdin ?? (await readStdin())) : [];
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
      ...(hook === 'pre-push' && (fallback.dryRun ?? pushIsDryRun()) ? { dryRun: true } : {}),
    });
    // After the run, not before: a resident starting beside it would compete for the same cores.
    if (fallback.startResident) await startResidentIfWanted(cwd);
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
