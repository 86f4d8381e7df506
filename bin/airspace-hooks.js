#!/usr/bin/env node
// Thin bin: hook invocations take a fast path — one bundled file, no yargs (hook start-up is a
// budget); everything else goes through the full CLI, bundled too (scripts/bundle-cli.mjs). Only
// this file sets the exit code.
if (process.argv[2] === 'hook') {
  const { runHook } = await import('../dist/hook.bundle.js');
  process.exitCode = await runHook(process.argv.slice(3));
} else {
  const { main } = await import('../dist/bundle/cli.js');
  process.exitCode = await main(process.argv.slice(2));
}
