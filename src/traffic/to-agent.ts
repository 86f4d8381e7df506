import type { Agent, FileEdit, LineRange } from '../engine/types.js';
import type { WorkingSet, WorkingSetFile } from './working-set.js';

export interface AgentFacts {
  readonly intent?: readonly string[];
  readonly committedWork?: number;
  /** Commits a peer can verify, pushed or not (engine Agent.provenWork). */
  readonly provenWork?: number;
  readonly startedAt?: number;
  /** The name both machines rank this agent by (engine Agent.rankKey). */
  readonly rankKey?: string;
}

/**
 * Half-open `[s, e)` (git hunks, dataset) → the engine's inclusive `[s, e − 1]`.
 * An empty range `[s, s)` becomes the insertion point `[s, s − 1]`, keeping its position.
 */
export function toInclusiveRange([start, end]: readonly [number, number]): LineRange {
  return [start, end - 1];
}

function toFileEdit(entry: WorkingSetFile): FileEdit {
  const whole = entry.whole === true || entry.binary === true || entry.ranges === undefined;
  return {
    path: entry.file,
    ...(entry.path !== undefined && entry.path !== entry.file ? { newPath: entry.path } : {}),
    ...(whole ? {} : { ranges: entry.ranges!.map(toInclusiveRange) }),
    ...(typeof entry.lastEditTime === 'number' ? { lastEditedAt: entry.lastEditTime } : {}),
  };
}

/**
 * The single adapter from a working set (git layer, beacon, or merge-scenario data) to an engine
 * agent; the CLI and the accuracy benchmark both go through it so they score the same thing.
 */
export function toAgent(id: string, workingSet: WorkingSet, facts: AgentFacts = {}): Agent {
  return {
    id,
    files: workingSet.files.map(toFileEdit),
    ...(facts.intent && facts.intent.length > 0 ? { intent: facts.intent } : {}),
    ...(facts.committedWork !== undefined ? { committedWork: facts.committedWork } : {}),
    ...(facts.provenWork !== undefined ? { provenWork: facts.provenWork } : {}),
    ...(facts.startedAt !== undefined ? { startedAt: facts.startedAt } : {}),
    ...(facts.rankKey !== undefined && facts.rankKey !== id ? { rankKey: facts.rankKey } : {}),
  };
}
