/**
 * Runs `npm run <step>` scripts as child processes for scripts/run-checks.mjs and scripts/test.mjs:
 * each step's output is kept and shown only when it fails, with its name, so steps running at once
 * never interleave their output.
 */
import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/**
 * Runs one package script. `background` lowers its CPU priority (inherited by the processes it
 * starts): a check that overlaps the test suite takes only the CPU the tests leave idle, so the
 * tests' own timing (hook budgets, browsers) sees the machine as it would without it.
 */
export function runStep(name, { background = false } = {}) {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(npm, ['run', name, '--silent'], { stdio: ['ignore', 'pipe', 'pipe'] });
    if (background && child.pid !== undefined) {
      try {
        setPriority(child.pid, 10);
      } catch {
        // Not permitted here (or the step already ended): it runs at normal priority.
      }
    }
    const chunks = [];
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.stderr.on('data', (chunk) => chunks.push(chunk));
    child.on('error', (error) => resolve({ name, code: 1, output: String(error), seconds: 0 }));
    child.on('close', (code, signal) =>
      resolve({ name, code: code ?? 1, signal, output: Buffer.concat(chunks).toString('utf8'), seconds: (performance.now() - started) / 1000 }),
    );
  });
}

/** Prints each failed step's output under its name and one summary line; returns how many failed. */
export function reportSteps(label, results) {
  let failed = 0;
  for (const result of results) {
    if (result.code === 0) continue;
    failed += 1;
    process.stderr.write(`\n✗ npm run ${result.name} failed (exit ${result.code}${result.signal ? `, ${result.signal}` : ''}):\n${result.output}\n`);
  }
  process.stderr.write(`${label}: ${results.map((r) => `${r.name} ${r.code === 0 ? 'ok' : 'FAILED'} ${r.seconds.toFixed(1)} s`).join(', ')}\n`);
  return failed;
}
