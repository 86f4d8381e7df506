import { describe, expect, it } from 'vitest';
import { contactBound } from '../../../src/engine/contact-bound.js';
import { resolveOptions } from '../../../src/engine/resolve-options.js';
import {
  DEFAULTS,
  contactBoundOf,
  pairKey,
  preparePairList,
  scorePairList,
  type ExternalChannelValue,
  type Link,
  type RiskSample,
} from '../../../src/index.js';
import { generateAgents, generateRepo, int, rng } from './generate-airspace.js';

const NOW = 1_000_000_000;
const HOUR = 3_600_000;

/** Contact as the all-pairs link shows it (with `graph`, graph contact counts too). */
function hasContact(link: Link, graph: boolean): boolean {
  return (
    link.sharedFiles.length > 0 ||
    (graph && (link.channels.dependency ?? 0) > 0) ||
    (link.channels.merge ?? 0) > 0 ||
    (link.evidence?.length ?? 0) > 0 ||
    (link.unknown?.length ?? 0) > 0
  );
}

function airspace(seed: number) {
  const random = rng(seed);
  const { files, graph } = generateRepo(random, int(random, 60, 400));
  const agents = generateAgents(random, files, int(random, 4, 24), int(random, 1, 4), NOW, 0.9);
  const pairs: [number, number][] = [];
  for (let i = 0; i < agents.length; i++) for (let j = i + 1; j < agents.length; j++) pairs.push(random() < 0.5 ? [i, j] : [j, i]);
  // Merge values as the CLI supplies them: a plain 0 (paths cannot meet), a conflict with evidence, unknown.
  const external: ExternalChannelValue[] = pairs
    .filter(() => random() < 0.3)
    .map(([x, y]) => {
      const roll = random();
      const value = roll < 0.6 ? 0 : roll < 0.85 ? 1 : null;
      return {
        a: agents[x]!.id,
        b: agents[y]!.id,
        channel: 'merge',
        value,
        ...(value === 1 ? { evidence: 'conflict' } : {}),
        ...(value === null ? { reason: 'merge-tree failed' } : {}),
      };
    });
  // History that closes fast on every pair: escalation would fire wherever the risk allows it.
  const history: Record<string, RiskSample[]> = {};
  for (const [x, y] of pairs) history[pairKey(agents[x]!.id, agents[y]!.id)] = [{ at: NOW - HOUR / 4, risk: 0 }];
  return { agents, pairs, graph, options: { now: NOW, external, history } };
}

describe('contact-only scoring (scan of many agents)', () => {
  const rules: [string, Record<string, number>][] = [
    ['path', {}],
    ['graph', { dependency: 0.9 }],
  ];
  for (const [rule, weights] of rules) {
    it(`rule '${rule}': lists exactly the all-pairs links of the pairs with contact; every left-out pair is clear below τ_TA − margin`, () => {
      let left = 0;
      let listed = 0;
      let coupledLeft = 0;
      for (let seed = 1; seed <= 40; seed++) {
        const base = airspace(seed);
        const { agents, pairs, graph } = base;
        const options = { ...base.options, weights };
        const all = scorePairList(agents, pairs, graph, options);
        const only = scorePairList(agents, pairs, graph, { ...options, contactOnly: true });
        expect(only.links).toEqual(all.links.filter((link) => hasContact(link, rule === 'graph')));
        expect(only.links.length + only.clearWithoutContact).toBe(pairs.length);
        expect(only.contacts).toBe(only.links.filter((link) => link.sharedFiles.length > 0 || (link.channels.dependency ?? 0) > 0).length);
        const { rule: chosen, bound } = contactBound(resolveOptions(options));
        expect(chosen).toBe(rule);
        const kept = new Set(only.links.map((link) => pairKey(link.a, link.b)));
        for (const link of all.links) {
          if (kept.has(pairKey(link.a, link.b))) continue;
          expect(link.level).toBe('clear');
          expect(link.risk).toBeLessThanOrEqual(bound! + 1e-12);
          expect(link.risk).toBeLessThan(DEFAULTS.tauTA - DEFAULTS.escalationMargin);
          expect(link.escalated).toBeUndefined();
          expect(link.evidence).toBeUndefined();
          expect(link.unknown).toBeUndefined();
          if ((link.channels.dependency ?? 0) > 0) coupledLeft++;
        }
        expect(only.clearBound).toBe(only.clearWithoutContact > 0 ? bound : null);
        left += only.clearWithoutContact;
        listed += only.links.length;
      }
      // Both kinds occur, or the test above proves nothing; under 'path', coupled pairs are left out too.
      expect(left).toBeGreaterThan(500);
      expect(listed).toBeGreaterThan(300);
      if (rule === 'path') expect(coupledLeft).toBeGreaterThan(100);
      else expect(coupledLeft).toBe(0);
    });
  }

  it('the bound: breadth and dependency (0.38) with the defaults; graph contact needed once dependency weighs; unknown channels and heavy weights list every pair', () => {
    const bound = (options: Parameters<typeof resolveOptions>[0]) => contactBound(resolveOptions(options));
    expect(bound({}).rule).toBe('path');
    expect(bound({}).bound).toBeCloseTo(1 - 0.65 * 0.95, 12);
    expect(bound({ weights: { tree: 0.1 } }).rule).toBe('path');
    expect(bound({ weights: { tree: 0.25 } })).toEqual({ rule: 'graph', bound: expect.closeTo(1 - 0.65 * 0.75, 12) });
    expect(bound({ weights: { dependency: 0.9 } })).toEqual({ rule: 'graph', bound: expect.closeTo(0.35, 12) });
    expect(bound({ channels: ['overlap', 'dependency'] }).rule).toBe('path');
    expect(bound({ channels: ['overlap', 'future'] }).rule).toBe('all');
    expect(bound({ weights: { breadth: 0.6 } }).rule).toBe('all');
    // Escalation reaches down to τ_TA − margin: a bound of 0.55 is below τ_TA (0.62) but not clear enough.
    expect(bound({ weights: { breadth: 0.55 } }).rule).toBe('all');

    const { agents, pairs, graph, options } = airspace(7);
    for (const heavy of [{ weights: { breadth: 0.6 } }, { channels: ['overlap', 'proximity', 'dependency', 'breadth', 'future'] }]) {
      const only = scorePairList(agents, pairs, graph, { ...options, ...heavy, contactOnly: true });
      expect(only.links).toHaveLength(pairs.length);
      expect(only.clearWithoutContact).toBe(0);
      expect(only.clearBound).toBeNull();
    }
  });

  it('lays out 250 agents from the listed pairs only: every agent placed, close pairs closer than pairs without contact', () => {
    const random = rng(99);
    const { files, graph } = generateRepo(random, 2000);
    const agents = generateAgents(random, files, 250, 3, NOW, 1);
    const pairs: [number, number][] = [];
    for (let i = 0; i < agents.length; i++) for (let j = i + 1; j < agents.length; j++) pairs.push([i, j]);
    const only = scorePairList(agents, pairs, graph, { now: NOW, contactOnly: true, embed: true });
    expect(only.clearWithoutContact).toBeGreaterThan(0);
    const at = only.embedding.positions;
    for (const agent of agents) expect(at[agent.id]?.every(Number.isFinite)).toBe(true);
    const gap = (a: string, b: string) => Math.hypot(...[0, 1, 2].map((d) => at[a]![d]! - at[b]![d]!));
    const close = only.links.filter((link) => link.risk >= 0.5);
    const kept = new Set(only.links.map((link) => pairKey(link.a, link.b)));
    const far: number[] = [];
    for (const [i, j] of pairs) if (!kept.has(pairKey(agents[i]!.id, agents[j]!.id))) far.push(gap(agents[i]!.id, agents[j]!.id));
    expect(close.length).toBeGreaterThan(10);
    const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
    expect(mean(close.map((link) => gap(link.a, link.b)))).toBeLessThan(mean(far));
  });
});

describe('pairs the caller never built (provenClear)', () => {
  const random = rng(27);
  const { files, graph } = generateRepo(random, 120);
  const agents = generateAgents(random, files, 8, 2, NOW, 0.9);
  const pairs: [number, number][] = [];
  for (let i = 0; i < agents.length; i++) for (let j = i + 1; j < agents.length; j++) pairs.push([i, j]);

  it('are counted clear without contact, with the bound, under the path rule', () => {
    const options = { ...DEFAULTS, now: NOW };
    const without = scorePairList(agents, pairs, graph, { ...options, contactOnly: true });
    const withProven = preparePairList(agents, pairs, graph, options).score({ contactOnly: true, provenClear: 40 });
    expect(withProven.links).toEqual(without.links);
    expect(withProven.clearWithoutContact).toBe(without.clearWithoutContact + 40);
    expect(withProven.clearBound).toBe(contactBound(resolveOptions(options)).bound);
    expect(contactBoundOf(options).rule).toBe('path');
  });

  it('are refused where a pair without a shared path can matter (a heavy breadth weight: every pair listed)', () => {
    const options = { ...DEFAULTS, now: NOW, weights: { ...DEFAULTS.weights, breadth: 0.9 } };
    expect(contactBoundOf(options).rule).toBe('all');
    expect(() => preparePairList(agents, pairs, graph, options).score({ contactOnly: true, provenClear: 1 })).toThrow(/provenClear/);
  });
});
