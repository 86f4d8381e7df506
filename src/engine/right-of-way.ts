import { EngineError } from './engine-error.js';
import type { Agent } from './types.js';

export interface RightOfWay {
  /** The higher-priority agent: keeps its course. */
  readonly hold: string;
  /** The lower-priority agent: steers away. Never equal to `hold`. */
  readonly steer: string;
}

const committed = (agent: Agent): number => (typeof agent.committedWork === 'number' && Number.isFinite(agent.committedWork) ? agent.committedWork : 0);

// A missing start counts as the youngest: an agent that says nothing about its age never outranks one that does.
const started = (agent: Agent): number => (typeof agent.startedAt === 'number' && Number.isFinite(agent.startedAt) ? agent.startedAt : Infinity);

/** Negative when `a` has priority over `b`. Code-unit order on ids, not locale order: the same on every machine. */
export function comparePriority(a: Agent, b: Agent): number {
  const work = committed(b) - committed(a);
  if (work !== 0) return work;
  const age = started(a) - started(b);
  if (age !== 0 && !Number.isNaN(age)) return age;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * Coordinated resolution (TCAS): priority = (committed work desc, start time asc, id asc).
 * Each agent computes this on its own machine from facts both can see, and the facts never
 * involve a clock, so both pick opposite maneuvers for any `now`; swapping a and b gives the
 * same answer. `options` is accepted for API symmetry and deliberately ignored.
 */
export function rightOfWay(a: Agent, b: Agent): RightOfWay {
  if (a.id === b.id) throw new EngineError('same-agent-pair', { id: a.id });
  return comparePriority(a, b) < 0 ? { hold: a.id, steer: b.id } : { hold: b.id, steer: a.id };
}
