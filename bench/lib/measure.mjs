// Wall-clock timing of whole processes (start to exit), medians, and peak memory.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PRELOAD = fileURLToPath(new URL('./max-rss-preload.mjs', import.meta.url));

/** Runs one process to completion; `ms` is wall clock from spawn to exit as seen by this process. */
export function timeProcess(command, args, options = {}) {
  const start = performance.now();
  const result = spawnSync(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    input: options.input ?? '',
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    timeout: options.timeoutMs ?? 0,
  });
  const ms = performance.now() - start;
  const timedOut =
    /** @type {NodeJS.ErrnoException | undefined} */ (result.error)?.code === 'ETIMEDOUT' || (result.signal === 'SIGTERM' && options.timeoutMs !== undefined);
  if (result.error && !timedOut) throw result.error;
  return { ms, code: result.status, stdout: result.stdout ?? '', stderr: result.stderr ?? '', timedOut };
}

/** `runs` timed repetitions of `fn` (which returns a timeProcess result); `before` runs untimed first each time. */
export function sample(runs, fn, before) {
  const results = [];
  for (let i = 0; i < runs; i++) {
    before?.(i);
    results.push(fn(i));
  }
  return { ms: results.map((r) => r.ms), codes: results.map((r) => r.code), last: results.at(-1), timedOut: results.some((r) => r.timedOut) };
}

export function median(values) {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Peak resident memory of a Node process, in bytes: the child loads a preload module that writes
 * `process.resourceUsage().maxRSS` (the kernel's ru_maxrss of that process) on exit. This is the
 * Node process alone, not the git processes it spawns (each git is its own, small, process).
 * Node's own `process.resourceUsage()` in the parent cannot give it: it is not per child.
 */
export function nodeMaxRss(script, args, options = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'airspace-rss-'));
  const out = join(dir, 'rss');
  try {
    const result = timeProcess(process.execPath, ['--import', PRELOAD, script, ...args], {
      ...options,
      env: { ...(options.env ?? process.env), AIRSPACE_BENCH_RSS_OUT: out },
    });
    const kib = Number(readFileSync(out, 'utf8'));
    return { ...result, rssBytes: kib * 1024 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** GNU time's %M (max RSS in KiB of the process tree's largest member), when /usr/bin/time exists. */
export function gnuTimeMaxRss(command, args, options = {}) {
  const result = timeProcess('/usr/bin/time', ['-f', '%M', command, ...args], options);
  if (result.code === null) return null;
  const lines = result.stderr.trim().split('\n');
  const kib = Number(lines.at(-1));
  return Number.isFinite(kib) ? kib * 1024 : null;
}
