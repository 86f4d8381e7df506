#!/usr/bin/env node
// Thin bin: hook invocations take a fast path — first the repository's resident process over its
// socket (dist/hook-fast-path.bundle.js: node built-ins and the client, one file), then, when it
// cannot answer, one bundled file, no yargs (hook start-up is a budget); everything else goes
// through the full CLI, bundled too (scripts/bundle-cli.mjs). Only this file sets the exit code.
if (process.argv[2] === 'hook') {
  const argv = process.argv.slice(3);
  const { hookFromResident } = await import('../dist/hook-fast-path.bundle.js');
  const fast = await hookFromResident(argv);
  if ('exitCode' in fast) process.exitCode = fast.exitCode;
  else {
    const { runHook } = await import('../dist/hook.bundle.js');
    process.exitCode = await runHook(argv, fast.fallback);
  }
} else {
  const { main } = await import('../dist/bundle/cli.js');
  process.exitCode = await main(process.argv.slice(2));
}
