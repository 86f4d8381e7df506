/**
 * This clone's identity: a random id made once per repository clone (its common dir, so linked
 * worktrees share it) and the machine's name for people. Two clones both on `main` are two
 * publishers: their beacons live under their own clone's refs (src/beacon/agent-ref.ts) and
 * neither overwrites the other. The id is random, not derived from the host or the path, so a
 * copied or moved clone stays itself and two clones on one machine still differ.
 * See docs/decisions/agent-identity.md.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';

export interface CloneIdentity {
  /** 10 lower-case hex digits, unique per clone. */
  readonly id: string;
  /** The machine's host name, reduced to `[A-Za-z0-9._-]`, at most 40 characters (display only). */
  readonly machine: string;
}

export const CLONE_ID = /^[0-9a-f]{10}$/;
export const MACHINE_NAME = /^[A-Za-z0-9._-]{1,40}$/;

const FILE = 'clone.json';

/** The clone's identity, made on first use; a file that is missing or unreadable is made anew only if absent. */
export async function cloneIdentity(commonDir: string): Promise<CloneIdentity> {
  // `<common-dir>/airspace/` as every shared state file (src/state/state-dirs.ts); this module runs no git.
  const file = join(commonDir, 'airspace', FILE);
  const found = parseIdentity(await readFile(file, 'utf8').catch(() => null));
  if (found) return found;
  const made: CloneIdentity = { id: randomBytes(5).toString('hex'), machine: machineName(hostname()) };
  await mkdir(dirname(file), { recursive: true });
  try {
    // `wx`: of two hooks making it at once, one writes and both then read the same file.
    await writeFile(file, `${JSON.stringify(made)}\n`, { flag: 'wx', mode: 0o644 });
    return made;
  } catch {
    return parseIdentity(await readFile(file, 'utf8').catch(() => null)) ?? made;
  }
}

export function machineName(host: string): string {
  const name = host
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, 40);
  return name === '' ? 'machine' : name;
}

function parseIdentity(text: string | null): CloneIdentity | null {
  if (text === null || text.length > 1000) return null;
  try {
    const value = JSON.parse(text) as { id?: unknown; machine?: unknown };
    if (typeof value.id !== 'string' || !CLONE_ID.test(value.id)) return null;
    const machine = typeof value.machine === 'string' && MACHINE_NAME.test(value.machine) ? value.machine : 'machine';
    return { id: value.id, machine };
  } catch {
    return null;
  }
}
