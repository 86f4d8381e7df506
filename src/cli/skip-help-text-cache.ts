import type { Argv } from 'yargs';

/** The part of yargs' internal usage object this module touches (node_modules/yargs/build/lib/usage.js). */
interface UsageInstance {
  cacheHelpMessage?: unknown;
}

/**
 * yargs formats the whole help text every time a command runs (`cacheHelpMessage`, called from
 * node_modules/yargs/build/lib/command.js for every non-default command) so that a failing async
 * handler could still print the command's help. This CLI's `.fail()` handler (src/cli/main.ts)
 * never prints help, so that text was built and never read: ≈ 25 ms of CPU per run, mostly cliui
 * and string-width. `--help` is unaffected: yargs formats the text when it is asked for. Reached
 * through yargs' own `getInternalMethods()` (no fork); if a yargs release drops either method the
 * run only gets slower, and test/integration/cli-bundle.test.ts fails.
 */
export function skipHelpTextCache(parser: Argv): void {
  const internal = (parser as unknown as { getInternalMethods?: () => { getUsageInstance?: () => UsageInstance } }).getInternalMethods?.();
  const usage = internal?.getUsageInstance?.();
  if (usage && typeof usage.cacheHelpMessage === 'function') usage.cacheHelpMessage = () => {};
}
