import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';

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
