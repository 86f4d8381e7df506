import { toSlots, toSpans, type Interval } from './intervals.js';
import { fileWeight, type RecencyOptions } from './recency.js';
import { clamp01 } from './resolve-options.js';
import type { Agent, FileEdit, LineRange } from './types.js';

/** One way of reading a file entry: its ranges (null = whole file) and its weight. */
export interface Reading {
  readonly ranges: readonly LineRange[] | null;
  readonly slots: readonly Interval[] | null;
  readonly spans: readonly Interval[] | null;
  readonly weight: number;
}

/**
 * A file of an agent, ready for scoring. An entry has one reading, or two when the agent both
 * edits the file and declares it as intent: the pair score takes the stronger reading channel by
 * channel (that is what "keep the stronger entry" means when neither reading dominates).
 */
export interface PreparedEntry {
  readonly path: string;
  /** Paths that match this entry: the base path and, for a rename, the new path. */
  readonly keys: readonly string[];
  readonly readings: readonly Reading[];
  /** Strongest weight over the readings (used by the dependency and tree channels). */
  readonly weight: number;
}

export interface PreparedAgent {
  readonly agent: Agent;
  readonly id: string;
  readonly entries: readonly PreparedEntry[];
  /** key → indices of the entries holding it (usually one; a rename target can repeat a path). */
  readonly byKey: ReadonlyMap<string, readonly number[]>;
  /** key → strongest weight of the entry holding it. */
  readonly weightByKey: ReadonlyMap<string, number>;
}

interface Draft {
  path: string;
  keys: Set<string>;
  ranges: LineRange[] | null;
  weight: number;
  intentWeight: number;
}

function reading(ranges: readonly LineRange[] | null, weight: number): Reading {
  return ranges === null ? { ranges: null, slots: null, spans: null, weight } : { ranges, slots: toSlots(ranges), spans: toSpans(ranges), weight };
}

function addEdit(drafts: Map<string, Draft>, file: FileEdit, weight: number): void {
  const existing = drafts.get(file.path);
  const ranges = file.ranges === undefined ? null : [...file.ranges];
  if (existing === undefined) {
    const keys = new Set([file.path]);
    if (file.newPath !== undefined) keys.add(file.newPath);
    drafts.set(file.path, { path: file.path, keys, ranges, weight, intentWeight: 0 });
    return;
  }
  // The same file listed twice (e.g. committed and uncommitted work): union of both.
  if (file.newPath !== undefined) existing.keys.add(file.newPath);
  existing.ranges = existing.ranges === null || ranges === null ? null : [...existing.ranges, ...ranges];
  existing.weight = Math.max(existing.weight, weight);
}

/** Normalises an agent once per scan: weights, merged duplicates, intent entries, interval forms. */
export function prepareAgent(agent: Agent, options: RecencyOptions & { intentWeight: number }): PreparedAgent {
  const drafts = new Map<string, Draft>();
  for (const file of agent.files) addEdit(drafts, file, fileWeight(file, options));
  const intentWeight = clamp01(options.intentWeight);
  for (const path of agent.intent ?? []) {
    const owner = [...drafts.values()].find((draft) => draft.keys.has(path));
    if (owner !== undefined) owner.intentWeight = Math.max(owner.intentWeight, intentWeight);
    else drafts.set(path, { path, keys: new Set([path]), ranges: null, weight: 0, intentWeight });
  }
  const entries: PreparedEntry[] = [];
  const byKey = new Map<string, number[]>();
  const weightByKey = new Map<string, number>();
  for (const draft of [...drafts.values()].sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0))) {
    const readings: Reading[] = [];
    if (draft.weight > 0 || draft.intentWeight === 0) readings.push(reading(draft.ranges, draft.weight));
    // An intent reading adds something only where the edit reading is weaker or narrower.
    const editDominates = draft.ranges === null && draft.weight >= draft.intentWeight;
    if (draft.intentWeight > 0 && !(readings.length > 0 && editDominates)) readings.push(reading(null, draft.intentWeight));
    const weight = Math.max(...readings.map((r) => r.weight));
    const index = entries.length;
    entries.push({ path: draft.path, keys: [...draft.keys], readings, weight });
    for (const key of draft.keys) {
      const holders = byKey.get(key);
      if (holders === undefined) byKey.set(key, [index]);
      else holders.push(index);
      weightByKey.set(key, Math.max(weightByKey.get(key) ?? 0, weight));
    }
  }
  return { agent, id: agent.id, entries, byKey, weightByKey };
}
