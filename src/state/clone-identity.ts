/**
 * This clone's identity: a random id made once per repository clone (its common dir, so linked
 * worktrees share it) and the machine's name for people. Two clones both on `main` are two
 * publishers: their beacons live under their own clone's refs (src/beacon/agent-ref.ts) and
 * neither overwrites the other. The id is random, so two clones on one machine differ; it is
 * bound to the clone's directory and machine, so a copied clone (a cached CI workspace, a VM
 * image, `cp -r`) makes an id of its own instead of speaking for the original.
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

interface StoredIdentity extends CloneIdentity {
  /** The common dir the id was made for. */
  readonly dir: string;
}

export const CLONE_ID = /^[0-9a-f]{10}$/;
export const MACHINE_NAME = /^[A-Za-z0-9._-]{1,40}$/;

const FILE = 'clone.json';

/** The clone's identity, made on first use; a file that is missing or unreadable is made anew only if absent. */
export async function cloneIdentity(commonDir: string): Promise<CloneIdentity> {
  // `<common-dir>/airspace/` as every shared state file (src/state/state-dirs.ts); this module runs no git.
  const file = join(commonDir, 'airspace', FILE);
  const machine = machineName(hostname());
  const found = parseIdentity(await readFile(file, 'utf8').catch(() => null));
  if (found && found.dir === commonDir && found.machine === machine) return { id: found.id, machine };
  const made: StoredIdentity = { id: randomBytes(5).toString('hex'), machine, dir: commonDir };
  await mkdir(dirname(file), { recursive: true });
  if (found) {
    // A copy (or a move) of another clone: its id is not ours to speak for.
    await writeFile(file, `${JSON.stringify(made)}\n`, { mode: 0o644 });
    return { id: made.id, machine };
  }
  try {
    // `wx`: of two hooks making it at once, one writes and both then read the same file.
    await writeFile(file, `${JSON.stringify(made)}\n`, { flag: 'wx', mode: 0o644 });
    return { id: made.id, machine };
  } catch {
    const raced = parseIdentity(await readFile(file, 'utf8').catch(() => null));
    return raced ? { id: raced.id, machine } : { id: made.id, machine };
  }
}

export function machineName(host: string): string {
  const name = host
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, 40);
  return name === '' ? 'machine' : name;
}

function parseIdentity(text: string | null): StoredIdentity | null {
  if (text === null || text.length > 5000) return null;
  try {
    const value = JSON.parse(text) as { id?: unknown; machine?: unknown; dir?: unknown };
    if (typeof value.id !== 'string' || !CLONE_ID.test(value.id)) return null;
    const machine = typeof value.machine === 'string' && MACHINE_NAME.test(value.machine) ? value.machine : 'machine';
    return { id: value.id, machine, dir: typeof value.dir === 'string' ? value.dir : '' };
  } catch {
    return null;
  }
}
