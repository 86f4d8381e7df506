import { existsSync, readFileSync } from 'node:fs';

/** Alive and not a zombie (a killed child of a dead git waits for init to reap it). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = `/proc/${pid}/stat`;
  return !existsSync(stat) || !/^\d+ \(.*\) Z/.test(readFileSync(stat, 'utf8'));
}

/** Whether `pid` is gone within 10 s: a kill is delivered at once, but on a loaded machine the reaping can take seconds. */
export async function gone(pid: number): Promise<boolean> {
  for (let i = 0; i < 500 && isAlive(pid); i++) await new Promise((resolve) => setTimeout(resolve, 20));
  return !isAlive(pid);
}
