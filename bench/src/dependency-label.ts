/**
 * A measurable stand-in for "a clean merge that still breaks", from what the data holds (working
 * sets and the base's import graph; no source code). Three labels, from weakest to strongest:
 *
 * - `crossImport` (exposure): a file changed only on one side directly imports, or is imported by,
 *   a file changed only on the other side. Necessary for a build break through an import, far from
 *   sufficient: the dataset README's static check found no actual break in any clean merge.
 * - `breakHazard`: one side deletes or renames a module that a file changed by the other side
 *   imports in the base, and the deleting side did not touch that importer (so nobody fixed the
 *   import on the way). This is the build break we can see without source; it is 0 on the dev split.
 * - `fixupCoupled` (conflicting merges only): the resolver edited files outside the conflicted ones
 *   (`resolutionExtraFiles`) and one of them is a changed file of a side or imports/is imported by one:
 *   the merge needed a semantic fix beyond the textual conflict, near the two sides' work.
 */
import type { ImportGraph } from '../../src/engine/types.js';
import type { WorkingSet } from '../../src/traffic/working-set.js';
import { undirectedNeighbours } from './dep-graph.js';

export interface DependencyLabels {
  readonly crossImport: boolean;
  readonly breakHazard: boolean;
  /** null for clean merges (no resolution happened). */
  readonly fixupCoupled: boolean | null;
}

const changed = (ws: WorkingSet): Set<string> => new Set(ws.files.map((f) => f.file));
const removed = (ws: WorkingSet): Set<string> => new Set(ws.files.filter((f) => f.status === 'D' || f.status === 'R').map((f) => f.file));

export function dependencyLabels(
  sideA: WorkingSet,
  sideB: WorkingSet,
  graph: ImportGraph,
  resolutionExtraFiles: readonly { readonly file: string }[] | null | undefined,
): DependencyLabels {
  const a = changed(sideA);
  const b = changed(sideB);
  const goneA = removed(sideA);
  const goneB = removed(sideB);
  let crossImport = false;
  let breakHazard = false;
  for (const [from, targets] of Object.entries(graph.adjacency)) {
    for (const to of targets) {
      const onlyA = (x: string): boolean => a.has(x) && !b.has(x);
      const onlyB = (x: string): boolean => b.has(x) && !a.has(x);
      if ((onlyA(from) && onlyB(to)) || (onlyB(from) && onlyA(to))) crossImport = true;
      if ((goneA.has(to) && b.has(from) && !a.has(from)) || (goneB.has(to) && a.has(from) && !b.has(from))) breakHazard = true;
    }
  }
  let fixupCoupled: boolean | null = null;
  if (resolutionExtraFiles !== null && resolutionExtraFiles !== undefined) {
    const near = undirectedNeighbours(graph);
    fixupCoupled = resolutionExtraFiles.map((e) => e.file).some((f) => a.has(f) || b.has(f) || [...(near.get(f) ?? [])].some((n) => a.has(n) || b.has(n)));
  }
  return { crossImport, breakHazard, fixupCoupled };
}
