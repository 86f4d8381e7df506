import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, removeDir, tempDir, testEnv } from '../helpers/temp-repo.js';

/**
 * The README's main job, end to end: `airspace-hooks demo` builds a real airspace (bare remote,
 * worktrees, a second clone), installs the real hooks and plays the story with real pushes.
 * The story's claims are checked against what happened, not against what the script meant.
 */
const dir = tempDir('airspace-demo-test-');
// The demo runs ~40 git and hook processes: ~30 s alone on an idle machine, and 291 s was not enough
// in a full `npm test` at load average 20 (six agents on 2 cores; docs/decisions/test-suite.md). The
// timeout only catches a hang, so it is far from any run we have seen. It runs asynchronously (the
// worker stays responsive); the child is killed before the test times out, so a hang fails with the
// demo's output instead of a bare timeout.
const DEMO_TIMEOUT_MS = 900_000;

function runDemo(): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, 'demo', '--json', '--dir', dir],
      // Background graph builds as a user has them (the suite turns them off): the demo must not start any.
      { env: testEnv({ CI: 'true', AIRSPACE_GRAPH_BACKGROUND: 'on' }), encoding: 'utf8', timeout: DEMO_TIMEOUT_MS - 10_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) =>
        resolve({
          status: error ? (typeof error.code === 'number' ? error.code : null) : 0,
          stdout,
          stderr: `${stderr}${error && typeof error.code !== 'number' ? `\n${error.message}` : ''}`,
        }),
    );
  });
}
afterAll(() => removeDir(dir));

describe('the demo', () => {
  it(
    'plays the story: an RA blocks exactly one agent, it steers, and everyone lands without conflicts',
    async () => {
      const run = await runDemo();
      expect(run.status, run.stderr).toBe(0);
      const result = JSON.parse(run.stdout);
      expect(result.resolutionAdvisory).toBe(true);
      expect(result.blockedPushes).toEqual(['cy']);
      expect(result.mergeConflicts).toBe(0);
      expect([...result.landed].sort()).toEqual(['ada', 'bob', 'cy', 'dana']);

      const [farApart, converging, imminent, steered] = result.steps;
      expect(farApart.scan.counts.RA).toBe(0);
      expect(converging.scan.counts.TA).toBeGreaterThan(0);
      expect(converging.scan.counts.RA).toBe(0);
      const cyPush = imminent.events.find((e: { agent: string; action: string }) => e.agent === 'cy' && e.action.startsWith('git push'));
      expect(cyPush.code).not.toBe(0);
      expect(cyPush.output).toContain('steer: you must steer away from ada/auth-timeout');
      const adaPush = imminent.events.find((e: { agent: string; action: string }) => e.agent === 'ada' && e.action.startsWith('git push'));
      expect(adaPush.code).toBe(0);
      const cyAgain = steered.events.find((e: { agent: string; action: string }) => e.agent === 'cy' && e.action.startsWith('git push'));
      expect(cyAgain.code).toBe(0);

      // The symbol scene: a changed signature is caught in bob's check before anything is merged.
      const signature = result.steps[4];
      const caught = signature.events.find((e: { agent: string; action: string }) => e.agent === 'bob' && e.action === 'airspace-hooks check');
      expect(caught.code).toBe(0);
      expect(caught.output).toMatch(
        /dana\S* changed the signature of `connect` \(src\/api\/client\.ts:3, 1 → 2 required parameters\); your new code in src\/billing\/sync\.ts:4 calls it with 1 argument/,
      );
      expect(signature.scan.counts.TA).toBeGreaterThan(0);
      expect(signature.scan.advisories.some((l: { symbols?: { symbol: string }[] }) => l.symbols?.some((s) => s.symbol === 'connect'))).toBe(true);

      expect(existsSync(result.radar)).toBe(true);
      const page = readFileSync(result.radar, 'utf8');
      expect(page).toContain('airspace-radar-data');
      expect(page).not.toMatch(/<script[^>]+src=/);
      expect(join(dir, 'airspace-demo.html')).toBe(result.radar);

      // No detached graph build was started (it would race the story for the CPU and outlive it).
      for (const clone of ['team', 'dana']) expect(existsSync(join(dir, clone, '.git', 'airspace', 'graph-build.json')), clone).toBe(false);
    },
    DEMO_TIMEOUT_MS,
  );
});
