/**
 * `npm run check`: the four house checks (types, lint + format, dead code, layers) at once. They
 * are independent and each is mostly one single-threaded process, so on two cores running them
 * together takes about as long as the slowest, not the sum (docs/decisions/test-suite.md has the
 * numbers). Each step's output is printed only when it fails, with its name; the exit code is 1
 * when any step failed.
 */
import { spawn } from 'node:child_process';

const STEPS = ['typecheck', 'lint', 'knip', 'lint:layers'];
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function runStep(name) {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(npm, ['run', name, '--silent'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks = [];
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.stderr.on('data', (chunk) => chunks.push(chunk));
    child.on('error', (error) => resolve({ name, code: 1, output: String(error), seconds: 0 }));
    child.on('close', (code, signal) =>
      resolve({ name, code: code ?? 1, signal, output: Buffer.concat(chunks).toString('utf8'), seconds: (performance.now() - started) / 1000 }),
    );
  });
}

const results = await Promise.all(STEPS.map(runStep));
let failed = 0;
for (const result of results) {
  if (result.code === 0) continue;
  failed += 1;
  process.stderr.write(`\n✗ npm run ${result.name} failed (exit ${result.code}${result.signal ? `, ${result.signal}` : ''}):\n${result.output}\n`);
}
process.stderr.write(`check: ${results.map((r) => `${r.name} ${r.code === 0 ? 'ok' : 'FAILED'} ${r.seconds.toFixed(1)} s`).join(', ')}\n`);
process.exitCode = failed > 0 ? 1 : 0;
