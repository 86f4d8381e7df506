import { readdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What a repo-relative path is on disk, answered from one cached `readdir` per directory instead
 * of one `stat` per candidate: the direct import reader (read-imports-directly.ts) asks for up to
 * 20 candidates per import, and a build reads every directory of the repository anyway.
 *
 * `unsure` whenever the disk could make a stat-based resolver answer differently: a symlink (the
 * resolver follows it to its real path), an entry that only matches in another letter case (a
 * case-insensitive file system would find it), anything that is neither file nor directory, or a
 * root that is not its own real path. Callers give such imports to dependency-cruiser.
 */

export type EntryKind = 'file' | 'dir' | 'none' | 'unsure';

interface Listing {
  readonly kinds: ReadonlyMap<string, EntryKind>;
  readonly lowerCase: ReadonlySet<string>;
}

export interface DirectoryEntries {
  /** `path` is repo-relative with forward slashes, already normalized (no `.`/`..`, no trailing slash). */
  kind(path: string): EntryKind;
}

export function openDirectoryEntries(toplevel: string): DirectoryEntries {
  let rootIsReal: boolean;
  try {
    rootIsReal = realpathSync(toplevel) === toplevel;
  } catch {
    rootIsReal = false;
  }
  const listings = new Map<string, Listing | undefined>();

  const listing = (dir: string): Listing | undefined => {
    if (listings.has(dir)) return listings.get(dir);
    let result: Listing | undefined;
    try {
      const kinds = new Map<string, EntryKind>();
      const lowerCase = new Set<string>();
      for (const entry of readdirSync(join(toplevel, dir), { withFileTypes: true })) {
        kinds.set(entry.name, entry.isFile() ? 'file' : entry.isDirectory() ? 'dir' : 'unsure');
        lowerCase.add(entry.name.toLowerCase());
      }
      result = { kinds, lowerCase };
    } catch {
      result = undefined;
    }
    listings.set(dir, result);
    return result;
  };

  // Every import asks for up to 20 candidates, most of them twice or more: one answer per path.
  const answers = new Map<string, EntryKind>();
  const kind = (path: string): EntryKind => {
    let answer = answers.get(path);
    if (answer === undefined) {
      answer = lookUp(path);
      answers.set(path, answer);
    }
    return answer;
  };
  const lookUp = (path: string): EntryKind => {
    if (!rootIsReal) return 'unsure';
    if (path === '') return 'dir';
    const slash = path.lastIndexOf('/');
    const parent = slash < 0 ? '' : path.slice(0, slash);
    const parentKind = kind(parent);
    if (parentKind !== 'dir') return parentKind === 'file' ? 'none' : parentKind;
    const entries = listing(parent);
    if (!entries) return 'unsure';
    const name = path.slice(slash + 1);
    const found = entries.kinds.get(name);
    if (found) return found;
    return entries.lowerCase.has(name.toLowerCase()) ? 'unsure' : 'none';
  };

  return { kind };
}
