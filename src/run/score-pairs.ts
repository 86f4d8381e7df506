import {
  contactBoundOf,
  pairKey,
  preparePairList,
  type Agent,
  type ContactRule,
  type ExternalChannelValue,
  type ImportGraph,
  type RiskSample,
  type ScanOptions,
  type Vec3,
} from '../engine/index.js';
import type { ModelOverrides } from '../config/defaults.js';
import { runMessages } from '../messages/hooks-and-check.js';
import type { ReportLink } from '../report/check-report.js';
import { symbolValue, type SignaturePolicy } from '../symbols/symbol-value.js';
import type { ChannelledPair } from '../channels/types.js';
import { toAgent, type AgentFacts } from '../traffic/to-agent.js';
import type { WorkingSet } from '../traffic/working-set.js';
import { byCodeUnits } from '../engine/code-unit-order.js';

/**
 * Runs the engine on every compared pair, through ONE scorer (engine `preparePairList`): each pair
 * has its own base (its merge-base), so an agent is built once per working set (comparePairs
 * shares one object per (base, line)), and the graph index, the dependency search and the
 * inverted index of paths are shared by all pairs. Radar positions use each agent's first
 * working set, since only paths matter much there.
 */
export interface ScorePairsInput {
  readonly pairs: readonly ChannelledPair[];
  readonly facts: ReadonlyMap<string, AgentFacts>;
  readonly graph: ImportGraph;
  readonly model: ModelOverrides;
  readonly channels: readonly string[];
  readonly now: number;
  readonly history: Readonly<Record<string, readonly RiskSample[]>>;
  /** Radar positions cost a layout pass; a hook printing text does not need them. */
  readonly embed: boolean;
  /** `symbols.signatureChange` of the config: a used signature change warns (default) or blocks. */
  readonly signatureChange?: SignaturePolicy;
  /**
   * List only pairs with contact (`scan`: all pairs of n agents); the others are counted as
   * clear without scoring when the model proves them clear (engine contact-bound.ts).
   */
  readonly contactOnly?: boolean;
  /** Pairs of the scan never built, their paths shown not to meet (src/run/pairs-to-score.ts): clear without contact. */
  readonly provenClear?: number;
}

export interface ScoredAirspace {
  readonly links: ReportLink[];
  readonly positions: Record<string, Vec3>;
  readonly fileCoordinates: Record<string, Vec3>;
  /** Pairs with a shared path or graph contact (the rest are clear by construction). */
  readonly contacts: number;
  /** Compared pairs not listed in `links`: no contact, clear by construction (contactOnly). */
  readonly clearWithoutContact: number;
  /** The largest risk one of those can have; null when none was left out. */
  readonly clearBound: number | null;
}

export interface PreparedScoring {
  /** Whether pair k of `input.pairs` has contact (engine PairScorer.contact; the symbol channel not counted). */
  contact(k: number): boolean;
  /** 'all' when pairs without contact cannot be proven clear: `contactOnly` then lists every pair. */
  readonly rule: ContactRule;
  /**
   * Scores the pairs; `pairs` (same list, same order) may carry symbol results computed after
   * `contact` (src/run/compute-git-channels.ts), which are then used instead of the input's.
   */
  score(pairs?: readonly ChannelledPair[]): ScoredAirspace;
}

/** The channels the engine computes itself; merge and symbol come from git (src/channels/) as external values. */
const engineChannelsOf = (channels: readonly string[]): string[] => channels.filter((c) => c !== 'merge' && c !== 'symbol');

/** The engine's contact rule for this model and these channels (engine contact-bound.ts), before any pair is scored. */
export function scanContactRule(model: ModelOverrides, channels: readonly string[]): ContactRule {
  return contactBoundOf({ ...model, channels: engineChannelsOf(channels) }).rule;
}

export function prepareScoring(input: ScorePairsInput): PreparedScoring {
  const engineChannels = engineChannelsOf(input.channels);
  const agents: Agent[] = [];
  // comparePairs hands every pair with the same (base, line) the same working-set object: one agent each.
  const slot = new Map<WorkingSet, Map<string, number>>();
  const agentIndex = (id: string, workingSet: WorkingSet, build: () => Agent): number => {
    let byId = slot.get(workingSet);
    if (byId === undefined) {
      byId = new Map();
      slot.set(workingSet, byId);
    }
    let index = byId.get(id);
    if (index === undefined) {
      index = agents.length;
      agents.push(build());
      byId.set(id, index);
    }
    return index;
  };
  const merges: ExternalChannelValue[] = [];
  const indices = input.pairs.map((pair): [number, number] => {
    const a = agentIndex(pair.a, pair.workingSetA, () => toAgent(pair.a, pair.workingSetA, input.facts.get(pair.a)));
    const b = agentIndex(pair.b, pair.workingSetB, () => toAgent(pair.b, pair.workingSetB, input.facts.get(pair.b)));
    if (pair.merge && input.channels.includes('merge')) {
      const evidence = pair.merge.value === 1 ? runMessages.mergeConflictEvidence(pair.merge.conflictedPaths) : undefined;
      merges.push({
        a: pair.a,
        b: pair.b,
        channel: 'merge',
        value: pair.merge.value,
        ...(pair.merge.reason ? { reason: pair.merge.reason } : {}),
        ...(evidence ? { evidence } : {}),
      });
    }
    return [a, b];
  });
  const options: ScanOptions = { ...input.model, channels: engineChannels, now: input.now, history: input.history, external: merges };
  const list = preparePairList(agents, indices, input.graph, options);
  return {
    contact: (k) => list.contact(k),
    rule: list.rule,
    score: (pairs = input.pairs) => {
      const symbols: ExternalChannelValue[] = [];
      const collisions = new Map<string, NonNullable<ReportLink['symbols']>>();
      for (const pair of input.channels.includes('symbol') ? pairs : []) {
        const symbol = pair.symbol;
        if (!symbol) continue;
        const { value, evidence } = symbol.value === null ? { value: null, evidence: undefined } : symbolValue(symbol.collisions, input.signatureChange);
        symbols.push({
          a: pair.a,
          b: pair.b,
          channel: 'symbol',
          value,
          ...(symbol.reason ? { reason: symbol.reason } : {}),
          ...(evidence ? { evidence } : {}),
        });
        if (symbol.collisions.length > 0) collisions.set(pairKey(pair.a, pair.b), symbol.collisions);
      }
      const scored = list.score({
        external: symbols,
        embed: input.embed && agents.length > 0,
        ...(input.contactOnly ? { contactOnly: true } : {}),
        ...(input.provenClear ? { provenClear: input.provenClear } : {}),
      });
      const links: ReportLink[] = scored.links.map((link) => {
        const found = collisions.get(pairKey(link.a, link.b));
        return found ? { ...link, symbols: found } : link;
      });
      links.sort((x, y) => y.risk - x.risk || byCodeUnits(`${x.a}\0${x.b}`, `${y.a}\0${y.b}`));
      return {
        links,
        positions: { ...scored.embedding.positions },
        fileCoordinates: { ...scored.embedding.fileCoordinates },
        contacts: scored.contacts,
        clearWithoutContact: scored.clearWithoutContact,
        clearBound: scored.clearBound,
      };
    },
  };
}
