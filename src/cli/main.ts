import yargs from 'yargs';
import { EXIT, exitCodeOf, knownError } from '../errors.js';
import { packageVersion } from '../app/version.js';
import { agentsCliMessages, cliMessages, errorMessages } from '../messages/command-line.js';
import { calibrateMessages } from '../messages/evaluation.js';
import { processOutput, type Output } from '../report/output.js';
import { PEER_DIFF_DEFAULTS } from '../report/peer-diff-report.js';
import { sanitizeText } from '../report/sanitize-text.js';
import { currentDirectory } from './current-directory.js';
import { skipHelpTextCache } from './skip-help-text-cache.js';

/**
 * The full CLI: turns arguments into options and hands them to the run layer; the run layer
 * returns data and an exit code; this file prints nothing but what the renderers made. Commands
 * are loaded lazily so `airspace-hooks intent add` does not pay for the radar or the graph.
 */
export async function main(argv: readonly string[], output: Output = processOutput()): Promise<number> {
  let exitCode: number = EXIT.ok;
  const set = (code: number) => {
    exitCode = code;
  };
  const run = (task: () => Promise<number>) => async () => set(await task());
  // Read from the parsed arguments before any handler runs, so a bug in one knows whether to show its stack.
  let debug = false;
  const cwd = currentDirectory();
  if (cwd === null) {
    output.err(cliMessages.error(cliMessages.cwdGone));
    return EXIT.error;
  }

  const parser = yargs([...argv])
    .scriptName('airspace-hooks')
    .usage(cliMessages.usage)
    .option('debug', { type: 'boolean', global: true, describe: errorMessages.debugOption })
    .middleware((args) => {
      debug = args.debug === true;
    })
    .command(
      'check',
      cliMessages.commands.check,
      (y) =>
        y
          .option('hook', { choices: ['pre-commit', 'pre-push'] as const, describe: cliMessages.options.hook })
          .option('fetch', { type: 'boolean', describe: cliMessages.options.fetch })
          .option('json', { type: 'boolean', default: false, describe: cliMessages.options.json })
          // Hidden, only to refuse it with the reason: check fails on any error already (see checkNoStrict).
          .option('strict', { type: 'boolean', hidden: true }),
      (args) => {
        if (args.strict !== undefined) throw new UsageError(cliMessages.checkNoStrict);
        return run(async () =>
          (await import('./commands/check-command.js')).checkCommand(cwd, { hook: args.hook ?? null, fetch: args.fetch, json: args.json }, output),
        )();
      },
    )
    .command(
      'scan',
      cliMessages.commands.scan,
      (y) =>
        y
          .option('agent', { type: 'string', array: true, describe: cliMessages.options.agent })
          .option('at', { type: 'string', describe: cliMessages.options.at })
          .option('channels', { type: 'string', describe: cliMessages.options.channels })
          .option('fetch', { type: 'boolean', default: false, describe: cliMessages.options.fetch })
          .option('json', { type: 'boolean', default: false, describe: cliMessages.options.json }),
      (args) =>
        run(async () =>
          (await import('./commands/check-command.js')).scanCommand(
            cwd,
            { agents: args.agent ?? [], at: args.at, channels: args.channels, fetch: args.fetch, json: args.json },
            output,
          ),
        )(),
    )
    .command(
      'doctor',
      cliMessages.commands.doctor,
      (y) => y.option('json', { type: 'boolean', default: false }),
      (args) => run(async () => (await import('./commands/doctor-command.js')).doctorCommand(cwd, { json: args.json }, output))(),
    )
    .command(
      'install',
      cliMessages.commands.install,
      (y) =>
        y
          .option('force', { type: 'boolean', default: false, describe: cliMessages.options.force })
          .option('worktree', { type: 'boolean', default: false, describe: cliMessages.options.worktree })
          .option('claude-code', { type: 'boolean', default: false, describe: agentsCliMessages.options.claudeCode })
          .option('cursor', { type: 'boolean', default: false, describe: agentsCliMessages.options.cursor })
          .option('gemini', { type: 'boolean', default: false, describe: agentsCliMessages.options.gemini })
          .option('codex', { type: 'boolean', default: false, describe: agentsCliMessages.options.codex }),
      (args) =>
        run(async () =>
          (await import('./commands/install-command.js')).installCommand(
            cwd,
            { force: args.force, claudeCode: args.claudeCode, cursor: args.cursor, gemini: args.gemini, codex: args.codex, worktree: args.worktree },
            output,
          ),
        )(),
    )
    .command(
      'uninstall',
      cliMessages.commands.uninstall,
      (y) => y.option('worktree', { type: 'boolean', default: false, describe: cliMessages.options.uninstallWorktree }),
      (args) => run(async () => (await import('./commands/install-command.js')).uninstallCommand(cwd, output, { worktree: args.worktree }))(),
    )
    .command(
      'beacon <action>',
      cliMessages.commands.beacon,
      (y) =>
        y
          .positional('action', { choices: ['publish', 'list', 'clear'] as const, demandOption: true })
          .option('note', { type: 'string', describe: cliMessages.options.note })
          .option('stale', { type: 'boolean', default: false, describe: cliMessages.options.stale })
          .option('json', { type: 'boolean', default: false }),
      (args) =>
        run(async () =>
          (await import('./commands/beacon-command.js')).beaconCommand(
            cwd,
            { action: args.action, note: args.note, json: args.json, stale: args.stale },
            output,
          ),
        )(),
    )
    .command(
      'intent <action> [paths..]',
      cliMessages.commands.intent,
      (y) =>
        y
          .positional('action', { choices: ['add', 'list', 'clear'] as const, demandOption: true })
          .positional('paths', { type: 'string', array: true })
          .option('ttl', { type: 'string', describe: cliMessages.options.ttl })
          .option('json', { type: 'boolean', default: false }),
      (args) =>
        run(async () =>
          (await import('./commands/intent-command.js')).intentCommand(
            cwd,
            { action: args.action, paths: args.paths ?? [], json: args.json, ...(args.ttl !== undefined ? { ttl: args.ttl } : {}) },
            output,
          ),
        )(),
    )
    .command(
      'inbox',
      cliMessages.commands.inbox,
      (y) => y.option('json', { type: 'boolean', default: false }).option('ack', { type: 'boolean', default: false, describe: cliMessages.options.ack }),
      (args) => run(async () => (await import('./commands/inbox-command.js')).inboxCommand(cwd, { json: args.json, ack: args.ack }, output))(),
    )
    .command(
      'radar',
      cliMessages.commands.radar,
      (y) =>
        y
          .option('out', { type: 'string', default: 'airspace.html', describe: cliMessages.options.out })
          .option('serve', { type: 'boolean', default: false, describe: cliMessages.options.serve })
          .option('port', { type: 'number', default: 4477 })
          .option('interval', { type: 'number', default: 3000, describe: cliMessages.options.interval })
          .option('agent', { type: 'string', array: true, describe: cliMessages.options.agent }),
      (args) =>
        run(async () =>
          (await import('./commands/radar-command.js')).radarCommand(
            cwd,
            { out: args.out, serve: args.serve, port: args.port, intervalMs: args.interval, agents: args.agent ?? [] },
            output,
          ),
        )(),
    )
    .command(
      'demo',
      cliMessages.commands.demo,
      (y) => y.option('dir', { type: 'string', describe: cliMessages.options.demoDir }).option('json', { type: 'boolean', default: false }),
      (args) => run(async () => (await import('./commands/demo-command.js')).demoCommand({ dir: args.dir, json: args.json }, output))(),
    )
    .command(
      'replay',
      cliMessages.commands.replay,
      (y) => y.option('merges', { type: 'number', default: 50, describe: cliMessages.options.merges }).option('json', { type: 'boolean', default: false }),
      (args) => run(async () => (await import('./commands/replay-command.js')).replayCommand(cwd, { merges: args.merges, json: args.json }, output))(),
    )
    // `graph build --background` is what hooks and `install` start; `--force` re-reads every file.
    .command(
      'graph <action>',
      cliMessages.commands.graph,
      (y) =>
        y
          .positional('action', { choices: ['build'] as const, demandOption: true })
          .option('force', { type: 'boolean', default: false, describe: cliMessages.options.graphForce })
          .option('background', { type: 'boolean', default: false, describe: cliMessages.options.graphBackground })
          .option('after-pid', { type: 'number', describe: cliMessages.options.graphAfterPid })
          .option('json', { type: 'boolean', default: false }),
      (args) =>
        run(async () =>
          (await import('./commands/graph-command.js')).graphCommand(
            cwd,
            {
              action: args.action,
              background: args.background,
              force: args.force,
              json: args.json,
              ...(Number.isSafeInteger(args.afterPid) && args.afterPid! > 1 ? { afterPid: args.afterPid! } : {}),
            },
            output,
          ),
        )(),
    )
    .command(
      'calibrate',
      calibrateMessages.command,
      (y) =>
        y
          .option('merges', { type: 'number', default: 200, describe: calibrateMessages.mergesOption })
          .option('write', { type: 'boolean', default: false, describe: calibrateMessages.writeOption })
          .option('json', { type: 'boolean', default: false }),
      (args) =>
        run(async () =>
          (await import('./commands/calibrate-command.js')).calibrateCommand(cwd, { merges: args.merges, write: args.write, json: args.json }, output),
        )(),
    )
    .command('mcp', agentsCliMessages.commands.mcp, {}, () => run(async () => (await import('./commands/mcp-command.js')).mcpCommand(cwd))())
    .command(
      'diff <peer> [file]',
      agentsCliMessages.commands.diff,
      (y) =>
        y
          .positional('peer', { type: 'string', demandOption: true, describe: agentsCliMessages.options.peer })
          .positional('file', { type: 'string', describe: agentsCliMessages.options.file })
          .option('near', { type: 'number', default: PEER_DIFF_DEFAULTS.near, describe: agentsCliMessages.options.near })
          .option('context', { type: 'number', default: PEER_DIFF_DEFAULTS.context, describe: agentsCliMessages.options.context })
          .option('max-hunks', { type: 'number', default: PEER_DIFF_DEFAULTS.maxHunks, describe: agentsCliMessages.options.maxHunks })
          .option('max-bytes', { type: 'number', default: PEER_DIFF_DEFAULTS.maxBytes, describe: agentsCliMessages.options.maxBytes })
          .option('json', { type: 'boolean', default: false, describe: cliMessages.options.json }),
      (args) =>
        run(async () =>
          (await import('./commands/diff-command.js')).diffCommand(
            cwd,
            { peer: args.peer, file: args.file, near: args.near, context: args.context, maxHunks: args.maxHunks, maxBytes: args.maxBytes, json: args.json },
            output,
          ),
        )(),
    )
    .command(
      'watch',
      agentsCliMessages.commands.watch,
      (y) =>
        y
          .option('json', { type: 'boolean', default: false, describe: agentsCliMessages.options.watchJson })
          .option('debounce', { type: 'number', default: 300, describe: agentsCliMessages.options.debounce }),
      (args) => run(async () => (await import('./commands/watch-command.js')).watchCommand(cwd, { json: args.json, debounceMs: args.debounce }, output))(),
    )
    .command(
      'resident <action>',
      agentsCliMessages.commands.resident,
      (y) =>
        y
          .positional('action', { choices: ['status', 'stop', 'serve'] as const, describe: agentsCliMessages.commands.resident })
          .option('json', { type: 'boolean', default: false, describe: cliMessages.options.json }),
      (args) =>
        run(async () =>
          (await import('./commands/resident-command.js')).residentCommand(
            cwd,
            { action: args.action as 'status' | 'stop' | 'serve', json: args.json },
            output,
          ),
        )(),
    )
    .demandCommand(1, cliMessages.needCommand)
    .strict()
    .help()
    // yargs' own lookup reads the package.json above the cwd: the host project's version, not ours.
    .version(packageVersion())
    .wrap(Math.min(100, process.stdout.columns ?? 100))
    .fail((message, error) => {
      if (error) throw error;
      throw new UsageError(message);
    });
  skipHelpTextCache(parser);

  try {
    await parser.parseAsync();
  } catch (error) {
    if (error instanceof UsageError) {
      output.err(cliMessages.usageError(error.message));
      return EXIT.error;
    }
    const known = knownError(error);
    if (known) output.err(cliMessages.error(sanitizeText(known.message, { maxLength: 500 })));
    else {
      // A bug: one line by default, the stack when asked for (`--debug`).
      output.err(cliMessages.error(cliMessages.internal((error as Error)?.message ?? String(error))));
      if (!debug) output.err(errorMessages.debugHint);
      else if (error instanceof Error && error.stack) output.err(error.stack);
    }
    return exitCodeOf(error);
  }
  return exitCode;
}

class UsageError extends Error {}
