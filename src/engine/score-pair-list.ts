import { pairKey } from './closure-rate.js';
import { layoutAgents, layoutAgentsSparse, type Embedding } from './embed-agents.js';
import { contactBound, type ContactBound, type ContactRule } from './contact-bound.js';
import { EngineError } from './engine-error.js';
import { graphIndex } from './graph-index.js';
import type { ScanOptions } from './options.js';
import { createPairScorer, type PairScorer } from './pair-scorer.js';
import { resolveOptions } from './resolve-options.js';
import type { Agent, ExternalChannelValue, ImportGraph, Link } from './types.js';

export interface PairListOptions extends ScanOptions {
  /** Also lay the agents out for the radar (one point per agent id, its first occurrence). */
  readonly embed?: boolean;
  /**
   * Score and return only the pairs with contact (PairScorer.contact, under the options' rule) when
   * the options prove every other pair clear (contact-bound.ts); those are counted in
   * `clearWithoutContact`, not scored.
   * When the options cannot prove it (a heavy breadth or tree weight, an unknown channel), every
   * pair is scored and returned, as without this flag.
   */
  readonly contactOnly?: boolean;
}

export interface PairListResult {
  /**
   * One link per returned pair, in the order of `pairs` (each link names `agents[i]` as `a`):
   * every pair, or with `contactOnly` the pairs with contact.
   */
  readonly links: Link[];
  /** Returned pairs with a path in common or graph contact. */
  readonly contacts: number;
  /** Pairs left out by `contactOnly`: no contact, clear by construction (0 without the flag). */
  readonly clearWithoutContact: number;
  /** The largest risk any left-out pair can have (contact-bound.ts); null when none was left out. */
  readonly clearBound: number | null;
  readonly embedding: Embedding;
}

/**
 * Scores a given list of pairs through ONE scorer, for callers whose pairs each have their own
 * base (the CLI: an agent's working set depends on the merge-base with the other side), so an
 * agent id may appear several times in `agents`, once per distinct working set. Everything that
 * does not depend on the pair is shared: the graph index, one dependency search (each agent's
 * bounded reach computed once), the inverted index of paths. Same links as `advise` per pair.
 */
export function scorePairList(
  agents: readonly Agent[],
  pairs: readonly (readonly [number, number])[],
  graph: ImportGraph,
  options: PairListOptions = {},
): PairListResult {
  return preparePairList(agents, pairs, graph, options).score(options);
}

/**
 * The contact rule (and bound) these options give, before any pair is known: for a caller that
 * decides which pairs to build at all (src/run/pairs-to-score.ts).
 */
export function contactBoundOf(options: ScanOptions = {}): ContactBound {
  return contactBound(resolveOptions(options));
}

/** What a caller adds once it knows which pairs have contact. */
export interface LateOptions {
  /** External values computed after `contact` (added to the options' own). */
  readonly external?: readonly ExternalChannelValue[];
  readonly embed?: boolean;
  readonly contactOnly?: boolean;
  /**
   * Pairs the caller left out of the list itself, having shown that they have no contact: no
   * shared path and no external value (the CLI's `scan` leaves out pairs whose paths do not meet,
   * src/traffic/every-pair.ts). Counted with `clearWithoutContact`. Only the 'path' rule proves
   * such pairs clear.
   */
  readonly provenClear?: number;
}

export interface PreparedPairList {
  /** Whether pair k of the list must be listed (PairScorer.contact under the options' contact rule; every pair under 'all'). */
  contact(k: number): boolean;
  /** Which pairs `contactOnly` keeps (contact-bound.ts): 'all' keeps every pair. */
  readonly rule: ContactRule;
  score(late: LateOptions): PairListResult;
}

/**
 * The scorer of a pair list before scoring: a caller can ask which pairs have contact, compute
 * a costly external channel (a git process per pair) for those only, then score with it.
 */
export function preparePairList(
  agents: readonly Agent[],
  pairs: readonly (readonly [number, number])[],
  graph: ImportGraph,
  options: ScanOptions = {},
): PreparedPairList {
  const resolved = resolveOptions(options);
  const scorer = createPairScorer(agents, graph, resolved);
  const seen = new Set<string>();
  for (const [i, j] of pairs) {
    if (agents[i] === undefined || agents[j] === undefined || agents[i].id === agents[j].id)
      throw new EngineError('same-agent-pair', { id: agents[i]?.id ?? String(i) });
    const key = pairKey(agents[i].id, agents[j].id);
    if (seen.has(key)) throw new EngineError('duplicate-agent-id', { id: `${agents[i].id} / ${agents[j].id}` });
    seen.add(key);
  }
  const { rule, bound } = contactBound(resolved);
  return {
    contact: (k) => rule === 'all' || scorer.contact(pairs[k]![0], pairs[k]![1], rule === 'graph'),
    rule,
    score: (late) => {
      const proven = late.provenClear ?? 0;
      // A bug of the caller, not bad input: under 'graph' or 'all' a pair without a shared path can still matter.
      if (proven > 0 && (rule !== 'path' || late.contactOnly !== true)) throw new Error(`provenClear needs contactOnly under the 'path' rule (rule: ${rule})`);
      const final = late.external?.length ? scorer.withExternal([...resolved.external, ...late.external]) : scorer;
      const prune = late.contactOnly === true && rule !== 'all';
      let contacts = 0;
      let skipped = 0;
      const links: Link[] = [];
      for (const [i, j] of pairs) {
        if (prune && !final.contact(i, j, rule === 'graph')) {
          skipped++;
          continue;
        }
        const link = final.link(i, j);
        if (link.sharedFiles.length > 0 || (link.channels.dependency ?? 0) > 0) contacts++;
        links.push(link);
      }
      return {
        links,
        contacts,
        clearWithoutContact: skipped + proven,
        clearBound: skipped + proven > 0 ? bound : null,
        embedding: late.embed ? embed(final, links, graph, resolved.embeddingPull) : { positions: {}, fileCoordinates: {} },
      };
    },
  };
}

/**
 * Up to this many agents the radar gets the dense layout (n × n targets, every pair's distance,
 * unlisted pairs scored for it); beyond it, only the listed pairs pull (sparse-stress.ts): memory
 * O(n + pairs), not O(n²). 100 is where the dense layout starts cutting its own rounds
 * (stress-majorization.ts); scoring the 19,900 pairs of 200 agents for it cost seconds under load.
 */
const DENSE_LAYOUT_MAX = 100;

/**
 * Radar layout: one point per id (its first working set). Listed pairs keep their scored distance;
 * in the dense layout, pairs nobody listed (peer × peer in a hook's check, pairs without contact
 * in a contact-only scan) are scored by the same scorer, as `embedAgents` would.
 */
function embed(scorer: PairScorer, links: readonly Link[], graph: ImportGraph, pull: number): Embedding {
  const index: number[] = [];
  const first = new Map<string, number>();
  scorer.agents.forEach((agent, i) => {
    if (first.has(agent.id)) return;
    first.set(agent.id, index.length);
    index.push(i);
  });
  const n = index.length;
  if (n === 0) return { positions: {}, fileCoordinates: {} };
  const agents = index.map((i) => scorer.agents[i]!);
  if (n > DENSE_LAYOUT_MAX) {
    const targets = { i: new Int32Array(links.length), j: new Int32Array(links.length), d: new Float64Array(links.length) };
    links.forEach((link, k) => {
      targets.i[k] = first.get(link.a)!;
      targets.j[k] = first.get(link.b)!;
      targets.d[k] = link.distance;
    });
    return layoutAgentsSparse(agents, graphIndex(graph), targets, pull);
  }
  const distances = new Float64Array(n * n).fill(-1);
  for (let i = 0; i < n; i++) distances[i * n + i] = 0;
  for (const link of links) {
    const x = first.get(link.a)!;
    const y = first.get(link.b)!;
    distances[x * n + y] = link.distance;
    distances[y * n + x] = link.distance;
  }
  for (let x = 0; x < n; x++) {
    for (let y = x + 1; y < n; y++) {
      if (distances[x * n + y]! >= 0) continue;
      const d = scorer.risk(index[x]!, index[y]!).distance;
      distances[x * n + y] = d;
      distances[y * n + x] = d;
    }
  }
  return layoutAgents(agents, graphIndex(graph), distances, pull);
}
