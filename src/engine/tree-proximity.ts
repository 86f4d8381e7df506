/**
 * Tree channel (seed eq. 6). depth(f) = number of path components ("src/a.ts" → 2);
 * L = number of leading components two paths share (identical paths share all of them), so
 * treeDistance = ((depth_f − L) + (depth_g − L)) / (depth_f + depth_g): 0 for the same file,
 * 1 for files under different top-level entries.
 */
export function treeDistance(f: string, g: string): number {
  const a = f.split('/');
  const b = g.split('/');
  let common = 0;
  while (common < a.length && common < b.length && a[common] === b[common]) common++;
  return (a.length - common + (b.length - common)) / (a.length + b.length);
}

/**
 * Per agent, for each directory prefix P (depth L ≥ 1) the strongest weight of its files below
 * P, per file depth. Lets a pair be scored by walking shared prefixes instead of all file pairs.
 */
export interface TreeProfile {
  /** prefix → (file depth → strongest weight). */
  readonly prefixes: ReadonlyMap<string, { readonly level: number; readonly byDepth: ReadonlyMap<number, number> }>;
  readonly files: ReadonlyMap<string, number>;
}

export function treeProfile(files: ReadonlyMap<string, number>): TreeProfile {
  const prefixes = new Map<string, { level: number; byDepth: Map<number, number> }>();
  for (const [path, weight] of files) {
    const parts = path.split('/');
    let prefix = '';
    for (let level = 1; level < parts.length; level++) {
      prefix = level === 1 ? parts[0]! : `${prefix}/${parts[level - 1]}`;
      let entry = prefixes.get(prefix);
      if (entry === undefined) {
        entry = { level, byDepth: new Map() };
        prefixes.set(prefix, entry);
      }
      entry.byDepth.set(parts.length, Math.max(entry.byDepth.get(parts.length) ?? 0, weight));
    }
  }
  return { prefixes, files };
}

/**
 * r_tree = max over f ∈ a, g ∈ b of w_f · w_g · (1 − treeDistance(f, g)).
 * Same files score w·w directly. For distinct files, 1 − treeDistance = 2L / (depth_f + depth_g);
 * scoring every shared prefix P with its own level L gives a lower bound for pairs whose real
 * common prefix is deeper, and the exact value at their deepest shared prefix, so the max over
 * shared prefixes is exact. When the strongest files under P on both sides are one and the same
 * file, the same-file term (factor 1) already dominates that estimate.
 */
export function treeScore(a: TreeProfile, b: TreeProfile): number {
  let best = 0;
  const [small, large] = a.files.size <= b.files.size ? [a, b] : [b, a];
  for (const [path, weight] of small.files) {
    const other = large.files.get(path);
    if (other !== undefined) best = Math.max(best, weight * other);
  }
  const [fewer, more] = a.prefixes.size <= b.prefixes.size ? [a, b] : [b, a];
  for (const [prefix, mine] of fewer.prefixes) {
    const theirs = more.prefixes.get(prefix);
    if (theirs === undefined) continue;
    for (const [depthA, weightA] of mine.byDepth) {
      for (const [depthB, weightB] of theirs.byDepth) {
        const value = (weightA * weightB * 2 * mine.level) / (depthA + depthB);
        if (value > best) best = value;
      }
    }
  }
  return Math.min(1, best);
}
