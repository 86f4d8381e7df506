import { spawnSync } from 'node:child_process';
import { testEnv } from './temp-repo.js';

/**
 * A beacon flood as a hostile pusher makes it, built fast: `count` valid parentless beacon commits
 * (one `git fast-import` process, not thousands of pushes) under `prefix`, dated `startSeconds`
 * onwards, each for its own agent `flood-<i>` with one whole-file entry on `file`, plus optional
 * oversized ones. Used by the flood test and bench/beacon-flood.mjs.
 */
export function floodBeacons(
  repo: string,
  options: {
    prefix: string;
    count: number;
    base: string;
    file: string;
    startSeconds: number;
    oversized?: number;
    oversizedBytes?: number;
    /** Agent names `<agentPrefix><i>` (default `flood-`): two floods of one remote need two. */
    agentPrefix?: string;
  },
): void {
  const chunks: string[] = [];
  const commit = (ref: string, seconds: number, json: string) => {
    const body = Buffer.byteLength(json);
    chunks.push(
      `commit ${ref}\ncommitter airspace-hooks <beacon@airspace-hooks.invalid> ${seconds} +0000\ndata 5\nflood\nM 100644 inline beacon.json\ndata ${body}\n${json}\n`,
    );
  };
  for (let i = 0; i < options.count; i++) {
    const agent = `${options.agentPrefix ?? 'flood-'}${i}`;
    const seconds = options.startSeconds + i;
    const beacon = {
      schema: 1,
      agent,
      branch: agent,
      head: options.base,
      base: options.base,
      workingSet: { base: options.base, files: [{ file: options.file, status: 'M', whole: true }] },
      intent: [],
      committedWork: 0,
      startedAt: null,
      updatedAt: seconds * 1000,
    };
    commit(`${options.prefix}${agent}`, seconds, JSON.stringify(beacon));
  }
  for (let i = 0; i < (options.oversized ?? 0); i++) {
    // Newer than the flood: the size check, not the count bound, must keep it out.
    const pad = 'x'.repeat(options.oversizedBytes ?? 1024 * 1024);
    commit(`${options.prefix}huge-${i}`, options.startSeconds + options.count + i, `{"schema":1,"agent":"huge-${i}","pad":"${pad}"}`);
  }
  const result = spawnSync('git', ['fast-import', '--quiet'], { cwd: repo, env: testEnv(), input: chunks.join('') });
  if (result.status !== 0) throw new Error(`fast-import: ${result.stderr.toString()}`);
}
