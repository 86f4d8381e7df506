import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';

/**
 * A list of files asked for twice around a stamp of them (and of `alsoStamped`): `stable` when both
 * answers name the same files and none of them moved in between — then the list is what the stamped
 * contents say, and it holds while they stamp the same.
 */
export async function listStably(
  ask: () => Promise<string[]>,
  alsoStamped: readonly string[] = [],
): Promise<{ readonly files: string[]; readonly stamps: string; readonly stable: boolean }> {
  const first = await ask();
  const stamps = stampFiles([...first, ...alsoStamped]);
  const files = await ask();
  return { files, stamps, stable: files.join('\0') === first.join('\0') && stampFiles([...files, ...alsoStamped]) === stamps };
}

/** What the files are now (identity, size, times; absent is a state too), as one digest. */
export function stampFiles(files: readonly string[]): string {
  const hash = createHash('sha256');
  for (const file of files) {
    try {
      const stat = statSync(file, { bigint: true });
      hash.update(`${file}\0${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}\n`);
    } catch {
      hash.update(`${file}\0none\n`);
    }
  }
  return hash.digest('hex');
}
