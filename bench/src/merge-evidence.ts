/**
 * The evidence the hook would have seen in the merge-scenario data: `git merge-tree` of the two
 * sides' states at each moment, computed once from the repositories' real histories by
 * bench/accuracy-evidence.mjs (the dataset itself stores no source). One JSON line per scenario:
 * `{repo, merge, moments: {<moment>: [conflicted paths] | null}}` — [] clean, null unknown, no entry
 * when a side is empty at that moment (nothing to merge, so no evidence).
 */
import { existsSync, readFileSync } from 'node:fs';
import { parseJsonl } from './load-scenarios.js';

/** Per merge, per moment: the conflicted paths ([] clean) or null (unknown). */
export type MergeEvidence = ReadonlyMap<string, Readonly<Record<string, readonly string[] | null>>>;

interface EvidenceLine {
  readonly merge: string;
  readonly moments: Readonly<Record<string, readonly string[] | null>>;
}

/** The evidence file, or null when it is absent (the benchmark then reports the risk rule only). */
export function loadMergeEvidence(path: string): MergeEvidence | null {
  if (!existsSync(path)) return null;
  return new Map(parseJsonl<EvidenceLine>(readFileSync(path, 'utf8'), path).map((line) => [line.merge, line.moments]));
}

/**
 * What the product's merge channel reports at `moment`: the conflicted paths outside the ignored
 * files ([] = clean or only ignored files, as src/traffic/pair-working-sets.ts does), or null when
 * unknown or not in the file.
 */
export function evidenceAt(evidence: MergeEvidence | null, merge: string, moment: string, ignore: (path: string) => boolean): readonly string[] | null {
  const moments = evidence?.get(merge);
  if (moments === undefined) return null;
  if (!(moment in moments)) return [];
  const paths = moments[moment];
  return paths === null || paths === undefined ? null : paths.filter((path) => !ignore(path));
}
