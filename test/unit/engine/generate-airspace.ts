import type { Agent, ImportGraph, LineRange } from '../../../src/index.js';

/** Deterministic PRNG (mulberry32) so every generated case is reproducible from its seed. */
export function rng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
export const int = (random: () => number, lo: number, hi: number): number => lo + Math.floor(random() * (hi - lo + 1));

/** A small repository: files in a 2–3 level directory tree, mostly local imports, a couple of hubs. */
export function generateRepo(random: () => number, fileCount: number): { files: string[]; graph: ImportGraph } {
  const tops = ['src', 'lib', 'test', 'packages'];
  const files: string[] = [];
  for (let i = 0; i < fileCount; i++) {
    const top = pick(random, tops);
    const mid = `m${int(random, 0, 4)}`;
    const deep = random() < 0.5 ? `/d${int(random, 0, 2)}` : '';
    files.push(`${top}/${mid}${deep}/f${i}.ts`);
  }
  const adjacency: Record<string, string[]> = {};
  const hubs = files.slice(0, 2);
  for (const file of files) {
    const dir = file.slice(0, file.lastIndexOf('/'));
    const local = files.filter((other) => other !== file && other.startsWith(dir));
    const imports = new Set<string>();
    for (let k = int(random, 0, 2); k > 0; k--) imports.add(pick(random, local.length > 0 ? local : files));
    if (random() < 0.15) imports.add(pick(random, files));
    if (random() < 0.1) imports.add(pick(random, hubs));
    imports.delete(file);
    adjacency[file] = [...imports];
  }
  return { files, graph: { adjacency } };
}

export function randomRanges(random: () => number, maxLine = 400): LineRange[] | undefined {
  if (random() < 0.1) return undefined; // whole-file edit
  const ranges: LineRange[] = [];
  for (let k = int(random, 1, 3); k > 0; k--) {
    const start = int(random, 1, maxLine);
    ranges.push(random() < 0.2 ? [start, start - 1] : [start, start + int(random, 0, 30)]);
  }
  return ranges;
}

/** Agents that each work in one or two areas of the repo (so some pairs are close, most are not). */
/** `focus`: share of an agent's files taken near its home (the rest anywhere in the repo). */
export function generateAgents(random: () => number, unsorted: readonly string[], count: number, perAgent: number, now = 1_000_000_000, focus = 0.8): Agent[] {
  const files = [...unsorted].sort(); // neighbours in this order share directories
  return Array.from({ length: count }, (_, index) => {
    const home = int(random, 0, files.length - 1);
    const chosen = new Set<string>();
    for (let k = 0; k < perAgent; k++) {
      const near = random() < focus;
      const at = near ? Math.min(files.length - 1, Math.max(0, home + int(random, -6, 6))) : int(random, 0, files.length - 1);
      chosen.add(files[at]!);
    }
    return {
      id: `agent-${String(index).padStart(3, '0')}`,
      files: [...chosen].map((path) => {
        const ranges = randomRanges(random);
        return {
          path,
          ...(ranges ? { ranges } : {}),
          ...(random() < 0.7 ? { lastEditedAt: now - int(random, 0, 72) * 3_600_000 } : {}),
        };
      }),
      ...(random() < 0.2 ? { intent: [pick(random, files)] } : {}),
      ...(random() < 0.7 ? { committedWork: int(random, 0, 3) } : {}),
      ...(random() < 0.7 ? { startedAt: now - int(random, 0, 5) * 86_400_000 } : {}),
    };
  });
}
