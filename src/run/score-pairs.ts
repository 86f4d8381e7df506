import { advise, embedAgents, type Agent, type ExternalChannelValue, type ImportGraph, type Link, type RiskSample, type ScanOptions, type Vec3 } from '../engine/index.js';
import type { ModelOverrides } from '../config/defaults.js';
import { runMessages } from '../messages/run.js';
import type { PairWorkingSets } from '../traffic/collect-airspace.js';
import { toAgent, type AgentFacts } from '../traffic/to-agent.js';
import { byCodeUnits } from '../engine/code-unit-order.js';

/**
 * Runs the engine on every compared pair. Each pair has its own base (its merge-base), so each
 * pair's two agents are built from that pair's working sets and scored with `advise`; the radar
 * positions use one working set per agent (its first pair) since only paths matter much there.
 */
export interface ScorePairsInput {
  readonly pairs: readonly PairWorkingSets[];
  readonly facts: ReadonlyMap<string, AgentFacts>;
  readonly graph: ImportGraph;
  readonly model: ModelOverrides;
  readonly channels: readonly string[];
  readonly now: number;
  readonly history: Readonly<Record<string, readonly RiskSample[]>>;
  /** Radar positions cost a layout pass; a hook printing text does not need them. */
  readonly embed: boolean;
}

export interface ScoredAirspace {
  readonly links: Link[];
  readonly positions: Record<string, Vec3>;
  readonly fileCoordinates: Record<string, Vec3>;
}

export function scorePairs(input: ScorePairsInput): ScoredAirspace {
  const engineChannels = input.channels.filter((c) => c !== 'merge');
  const options: ScanOptions = { ...input.model, channels: engineChannels, now: input.now, history: input.history };
  const representative = new Map<string, Agent>();
  const links = input.pairs.map((pair) => {
    const a = toAgent(pair.a, pair.workingSetA, input.facts.get(pair.a));
    const b = toAgent(pair.b, pair.workingSetB, input.facts.get(pair.b));
    if (!representative.has(a.id)) representative.set(a.id, a);
    if (!representative.has(b.id)) representative.set(b.id, b);
    const external: ExternalChannelValue[] = [];
    if (pair.merge && input.channels.includes('merge')) {
      const evidence = pair.merge.value === 1 ? runMessages.mergeConflictEvidence(pair.merge.conflictedPaths) : undefined;
      external.push({ a: pair.a, b: pair.b, channel: 'merge', value: pair.merge.value, ...(pair.merge.reason ? { reason: pair.merge.reason } : {}), ...(evidence ? { evidence } : {}) });
    }
    return advise(a, b, input.graph, { ...options, external });
  });
  links.sort((x, y) => y.risk - x.risk || byCodeUnits(`${x.a}\0${x.b}`, `${y.a}\0${y.b}`));
  const agents = [...representative.values()];
  const embedding = input.embed && agents.length > 0 ? embedAgents(agents, input.graph, options) : { positions: {}, fileCoordinates: {} };
  return { links, positions: { ...embedding.positions }, fileCoordinates: { ...embedding.fileCoordinates } };
}
