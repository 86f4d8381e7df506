import { isCi } from '../install/ci-environment.js';

/**
 * Whether this process may use (and start) a resident process, from the environment alone: never
 * in CI (a throw-away checkout has nothing to keep warm, and a process left behind can hold a
 * job open), never when AIRSPACE_RESIDENT=off (the test suite, a user who wants none). The
 * config's `resident.enabled` is read where the config is loaded (src/resident/start-resident.ts,
 * and by the resident process itself).
 */
export function residentWanted(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.AIRSPACE_RESIDENT?.trim().toLowerCase() === 'off') return false;
  return !isCi(env);
}
