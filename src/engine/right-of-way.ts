import { EngineError } from './engine-error.js';
import type { Agent, HoldReason } from './types.js';

export interface RightOfWay {
  /** The higher-priority agent: keeps its course. */
  readonly hold: string;
  /** The lower-priority agent: steers away. Never equal to `hold`. */
  readonly steer: string;
  /** The first fact that differed (told in every steer message). */
  readonly holdReason: HoldReason;
}

const committed = (agent: Agent): number => (typeof agent.committedWork === 'number' && Number.isFinite(agent.committedWork) ? agent.committedWork : 0);

// A missing start counts as the youngest: an agent that says nothing about its age never outranks one that does.
const started = (agent: Agent): number => (typeof agent.startedAt === 'number' && Number.isFinite(agent.startedAt) ? agent.startedAt : Infinity);

const proven = (agent: Agent): number =>
  typeof agent.provenWork === 'number' && Number.isFinite(agent.provenWork) ? Math.max(agent.provenWork, committed(agent)) : committed(agent);

const rank = (agent: Agent): string => agent.rankKey ?? agent.id;

/** Negative when `a` has priority over `b`. Code-unit order on rank keys, not locale order: the same on every machine. */
export function comparePriority(a: Agent, b: Agent): number {
  return decide(a, b).order;
}

function decide(a: Agent, b: Agent): { order: number; reason: HoldReason } {
  const work = committed(b) - committed(a);
  if (work !== 0) return { order: work, reason: 'committed-work' };
  const carried = proven(b) - proven(a);
  if (carried !== 0) return { order: carried, reason: 'proven-work' };
  const age = started(a) - started(b);
  if (age !== 0 && !Number.isNaN(age)) return { order: age, reason: 'started-earlier' };
  const [x, y] = [rank(a), rank(b)];
  const order = x < y ? -1 : x > y ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  return { order, reason: 'name-order' };
}

/**
 * Coordinated resolution (TCAS): priority = (pushed work desc, proven work desc, start time asc, rank key asc).
 * Each agent computes this on its own machine from facts both can see, and the facts never
 * involve a clock, so both pick opposite maneuvers for any `now`; swapping a and b gives the
 * same answer. `options` is accepted for API symmetry and deliberately ignored.
 */
export function rightOfWay(a: Agent, b: Agent): RightOfWay {
  if (a.id === b.id) throw new EngineError('same-agent-pair', { id: a.id });
  const { order, reason } = decide(a, b);
  return order < 0 ? { hold: a.id, steer: b.id, holdReason: reason } : { hold: b.id, steer: a.id, holdReason: reason };
}
