import type { GraphIndex } from './graph-index.js';

export interface ReachOptions {
  readonly gamma: number;
  readonly maxDepth: number;
  readonly couplingCutoff: number;
}

/** γ^k for k = 0..maxDepth−1; engine and reference both take coupling values from this table. */
export function couplingTable(gamma: number, maxDepth: number): Float64Array {
  const table = new Float64Array(Math.max(0, Math.floor(maxDepth)));
  for (let k = 0; k < table.length; k++) table[k] = gamma ** k;
  return table;
}

/**
 * One bounded multi-source search per agent (docs/decisions/engine-model.md, "Channels", dependency), run hop by hop.
 *
 * Sources are the agent's files f; a label (source f, depth d) at node n is worth w_f · γ^(d−1).
 * Round d offers every label inserted in round d − 1 to the neighbours (value w_f · γ^(d−1)).
 * Each node keeps the top-2 labels from DISTINCT sources (ordered by value, then source id), and
 * a source never labels itself: a file's own round trip f → n → f is not coupling (same-file
 * pairs belong to the overlap channel). Two labels suffice for the best non-self source of
 * every node: a label dropped at u was beaten there by two distinct sources, at most one of them
 * is the node v the dropped label was heading to, and the other reaches v with more value. The
 * source itself is never the loss either: a source's own labels leave it directly, at more value.
 * Expansion stops past maxDepth or where the offered value falls below couplingCutoff.
 *
 * Result, per query node g: best(g) = max over sources f ≠ g of w_f · γ^(d(f,g)−1). Exact; the
 * unit tests check it against a BFS per file pair on random graphs.
 */
export class DependencySearch {
  /** Per node, adjacent in memory (one fetch per edge): [source1, value1, depth1, source2, value2, depth2]; source −1 = none. */
  private readonly state: Float64Array;
  private readonly weightOf: Float64Array;
  private readonly queued: Int32Array;
  private readonly table: Float64Array;
  private readonly touched: Int32Array;
  private readonly frontierA: Int32Array;
  private readonly frontierB: Int32Array;
  /** The nodes someone asks about (querySlot ≥ 0), for the pulled last round. */
  private readonly queryNodes: Int32Array;

  constructor(
    private readonly graph: GraphIndex,
    /** node id → slot in the result array, −1 for nodes nobody asks about. */
    private readonly querySlot: Int32Array,
    private readonly slots: number,
    private readonly options: ReachOptions,
  ) {
    const n = graph.names.length;
    this.state = new Float64Array(6 * n);
    for (let i = 0; i < n; i++) {
      this.state[6 * i] = -1;
      this.state[6 * i + 3] = -1;
    }
    this.weightOf = new Float64Array(n);
    this.queued = new Int32Array(n);
    this.touched = new Int32Array(n);
    this.frontierA = new Int32Array(n);
    this.frontierB = new Int32Array(n);
    this.table = couplingTable(options.gamma, options.maxDepth);
    const asked: number[] = [];
    for (let i = 0; i < n; i++) if (querySlot[i]! >= 0) asked.push(i);
    this.queryNodes = Int32Array.from(asked);
  }

  /** sources: graph node id → weight w_f. Returns best(g) per query slot (0 = not coupled). */
  reach(sources: ReadonlyMap<number, number>): Float64Array {
    const { offsets, neighbours } = this.graph;
    const { state, weightOf, queued, table } = this;
    const cutoff = this.options.couplingCutoff;
    let frontier = this.frontierA;
    let next = this.frontierB;
    const touched = this.touched;
    let touchedCount = 0;
    let size = 0;
    for (const source of [...sources.keys()].sort((x, y) => x - y)) {
      weightOf[source] = sources.get(source)!;
      frontier[size++] = source;
    }
    const querySlot = this.querySlot;
    const pulled = new Float64Array(this.slots);
    for (let depth = 1; depth <= table.length && size > 0; depth++) {
      let nextSize = 0;
      const factor = table[depth - 1]!;
      // Last round: a label only matters where someone asks (no further expansion).
      const last = depth === table.length;
      if (last && depth >= 2) {
        this.pullLastRound(depth, factor, cutoff, pulled);
        break;
      }
      for (let i = 0; i < size; i++) {
        const node = frontier[i]!;
        // The labels this node gained in the previous round (round 1: the node as a source).
        let fresh = 0;
        let sourceA = -1;
        let sourceB = -1;
        let valueA = 0;
        let valueB = 0;
        for (let slot = 0; slot < 2; slot++) {
          let source: number;
          if (depth === 1) {
            if (slot === 1) break;
            source = node;
          } else {
            source = slot === 0 ? state[6 * node]! : state[6 * node + 3]!;
            if (source < 0 || (slot === 0 ? state[6 * node + 2] : state[6 * node + 5]) !== depth - 1) continue;
          }
          const value = weightOf[source]! * factor;
          if (!(value >= cutoff) || value <= 0) continue;
          if (fresh === 0) {
            sourceA = source;
            valueA = value;
          } else {
            sourceB = source;
            valueB = value;
          }
          fresh++;
        }
        if (fresh === 0) continue;
        for (let k = 0; k < fresh; k++) {
          const source = k === 0 ? sourceA : sourceB;
          const value = k === 0 ? valueA : valueB;
          for (let e = offsets[node]!, end = offsets[node + 1]!; e < end; e++) {
            const target = neighbours[e]!;
            if (target === source) continue;
            if (querySlot[target]! < 0) {
              if (last) continue;
              // A leaf nobody asks about could only hand the label back to this node, which
              // already holds it at a higher value: skipping it is exact.
              if (offsets[target + 1]! - offsets[target]! <= 1) continue;
            }
            const s1 = state[6 * target]!;
            if (s1 < 0) {
              state[6 * target] = source;
              state[6 * target + 1] = value;
              state[6 * target + 2] = depth;
              touched[touchedCount++] = target;
            } else {
              if (s1 === source) continue;
              const s2 = state[6 * target + 3]!;
              // Full node: most offers lose to its weaker label; a held source cannot improve.
              if (s2 >= 0) {
                const v2 = state[6 * target + 4]!;
                if (value < v2 || (value === v2 && source > s2) || s2 === source) continue;
              }
              const v1 = state[6 * target + 1]!;
              if (value > v1 || (value === v1 && source < s1)) {
                // The offer becomes the best label; the old best moves to second place.
                state[6 * target + 3] = s1;
                state[6 * target + 4] = v1;
                state[6 * target + 5] = state[6 * target + 2]!;
                state[6 * target] = source;
                state[6 * target + 1] = value;
                state[6 * target + 2] = depth;
              } else {
                state[6 * target + 3] = source;
                state[6 * target + 4] = value;
                state[6 * target + 5] = depth;
              }
            }
            if (!last && queued[target] !== depth) {
              queued[target] = depth;
              next[nextSize++] = target;
            }
          }
        }
      }
      const swap = frontier;
      frontier = next;
      next = swap;
      size = nextSize;
    }
    const best = new Float64Array(this.slots);
    for (let i = 0; i < touchedCount; i++) {
      const node = touched[i]!;
      const slot = querySlot[node]!;
      if (slot >= 0) best[slot] = state[6 * node + 1]!;
      state[6 * node] = -1;
      state[6 * node + 3] = -1;
      queued[node] = 0;
    }
    for (let slot = 0; slot < best.length; slot++) if (pulled[slot]! > best[slot]!) best[slot] = pulled[slot]!;
    for (const source of sources.keys()) weightOf[source] = 0;
    return best;
  }

  /**
   * The last round, pulled instead of pushed: only the query nodes' values matter after it, so
   * each query node q reads the labels its neighbours gained in the previous round (source ≠ q,
   * the same cut-off) instead of every frontier node offering to all its neighbours. Same values
   * as the push (which labels win only matters for later rounds, and there are none).
   */
  private pullLastRound(depth: number, factor: number, cutoff: number, pulled: Float64Array): void {
    const { offsets, neighbours } = this.graph;
    const { state, weightOf, queryNodes, querySlot } = this;
    for (let k = 0; k < queryNodes.length; k++) {
      const q = queryNodes[k]!;
      let value = 0;
      for (let e = offsets[q]!, end = offsets[q + 1]!; e < end; e++) {
        const u = neighbours[e]!;
        for (let at = 6 * u; at <= 6 * u + 3; at += 3) {
          const source = state[at]!;
          if (source < 0 || source === q || state[at + 2] !== depth - 1) continue;
          const offered = weightOf[source]! * factor;
          if (offered >= cutoff && offered > value) value = offered;
        }
      }
      if (value > 0) pulled[querySlot[q]!] = value;
    }
  }
}
