import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toImportGraph } from '../../../bench/src/dep-graph.js';
import { dependencyLabels } from '../../../bench/src/dependency-label.js';
import { datasetPaths, parseJsonl, readScenarios } from '../../../bench/src/load-scenarios.js';
import { agentsOf, pairAt } from '../../../bench/src/scenario-moments.js';
import type { JoinedScenario } from '../../../bench/src/scenario-types.js';

const scenario = {
  repo: 'o/r',
  merge: 'm1',
  mergeTime: 2000,
  mergeKind: 'branch-into',
  multipleBases: false,
  label_conflict: true,
  resolutionExtraFiles: [{ file: 'lib/c.js', added: 1, deleted: 0 }],
  sideA: {
    commits: 2,
    files: [
      {
        file: 'lib/a.js',
        status: 'M',
        ranges: [
          [3, 5],
          [9, 9],
        ],
      },
      { file: 'old.js', status: 'R', path: 'new.js', ranges: [[1, 1]] },
    ],
    binaryFiles: [{ file: 'logo.png', status: 'M' }],
  },
  sideB: { commits: 1, files: [{ file: 'lib/b.js', status: 'D', whole: true, ranges: [[1, 11]] }], binaryFiles: [] },
  depGraph: {
    nodes: ['lib/a.js', 'lib/b.js', 'lib/c.js'],
    edges: [
      [0, 1],
      [2, 0, 1],
    ],
  },
};
const snapshot = (t: number) => ({
  t,
  sideA: { prefix: 'p', files: [{ file: 'lib/a.js', status: 'M', ranges: [[3, 5]], lastEditTime: 1500 }], binaryFiles: [] },
  sideB: { prefix: null, files: [], binaryFiles: [] },
});
const prefix = { merge: 'm1', repo: 'o/r', snapshots: { '0.5': snapshot(1600) }, overlapSnapshots: { '0.5': snapshot(1700) } };
const recency = { merge: 'm1', repo: 'o/r', sideA: { 'lib/a.js': 1900, 'old.js': 1000, 'logo.png': null }, sideB: { 'lib/b.js': 1800 } };

function writeDataset(): string {
  const dir = mkdtempSync(join(tmpdir(), 'airspace-eval-'));
  const second = { ...scenario, merge: 'm2', label_conflict: false, resolutionExtraFiles: null };
  writeFileSync(join(dir, 'dev.jsonl'), `${JSON.stringify(scenario)}\n${JSON.stringify(second)}\n`);
  writeFileSync(join(dir, 'dev.prefix.jsonl'), `${JSON.stringify(prefix)}\n${JSON.stringify({ ...prefix, merge: 'm2' })}\n`);
  writeFileSync(join(dir, 'dev.recency.jsonl'), `${JSON.stringify(recency)}\n${JSON.stringify({ ...recency, merge: 'm2' })}\n`);
  return dir;
}

describe('loading the dataset', () => {
  it('streams the three files in lockstep and joins them by merge', async () => {
    const paths = datasetPaths(writeDataset());
    const merges: string[] = [];
    for await (const j of readScenarios(paths)) merges.push(`${j.scenario.merge}/${j.prefix?.merge}/${j.recency?.merge}`);
    expect(merges).toEqual(['m1/m1/m1', 'm2/m2/m2']);
    const selected: string[] = [];
    for await (const j of readScenarios(paths, { select: (i) => i === 1 })) selected.push(j.scenario.merge);
    expect(selected).toEqual(['m2']);
  });
  it('fails with an environment error when the data is missing', () => {
    expect(() => datasetPaths(join(tmpdir(), 'no-such-airspace-data'))).toThrow(/merge-scenario data not found/);
  });
  it('parses JSONL text and skips blank lines', () => {
    expect(parseJsonl<{ a: number }>('{"a":1}\n\n{"a":2}\n')).toEqual([{ a: 1 }, { a: 2 }]);
  });
});

describe('scenario → working sets → agents', () => {
  const joined = { scenario, prefix, recency } as unknown as JoinedScenario;
  it('final state: seconds → ms, recency from the recency file, binary and deleted files whole', () => {
    const pair = pairAt(joined, 'final')!;
    expect(pair.now).toBe(2_000_000);
    expect(pair.label).toBe(true);
    const [a, b] = agentsOf(pair);
    expect(a.files).toEqual([
      {
        path: 'lib/a.js',
        ranges: [
          [3, 4],
          [9, 8],
        ],
        lastEditedAt: 1_900_000,
      },
      { path: 'old.js', newPath: 'new.js', ranges: [[1, 0]], lastEditedAt: 1_000_000 },
      { path: 'logo.png' },
    ]);
    expect(b.files).toEqual([{ path: 'lib/b.js', lastEditedAt: 1_800_000 }]);
    expect(a.committedWork).toBe(2);
  });
  it('both-active and life cuts: the snapshot time is now, lastEditTime from the entry', () => {
    const both = pairAt(joined, 'both-0.5')!;
    expect(both.now).toBe(1_700_000);
    expect(both.bothActive).toBe(false);
    expect(agentsOf(both)[0].files).toEqual([{ path: 'lib/a.js', ranges: [[3, 4]], lastEditedAt: 1_500_000 }]);
    expect(pairAt(joined, 'life-0.5')!.now).toBe(1_600_000);
    expect(pairAt(joined, 'both-0.25')).toBeNull();
  });
  it('index-form graph → adjacency, type-only edges optional', () => {
    expect(toImportGraph(scenario.depGraph).adjacency).toEqual({ 'lib/a.js': ['lib/b.js'], 'lib/c.js': ['lib/a.js'] });
    expect(toImportGraph(scenario.depGraph, { includeTypeOnly: false }).adjacency).toEqual({ 'lib/a.js': ['lib/b.js'] });
    expect(toImportGraph(null).adjacency).toEqual({});
  });
  it('dependency labels: cross-side import, deleted module imported by the other side, coupled fix-up', () => {
    const pair = pairAt(joined, 'final')!;
    const labels = dependencyLabels(pair.sideA, pair.sideB, toImportGraph(scenario.depGraph), scenario.resolutionExtraFiles);
    // a.js (side A only) imports b.js (deleted on side B, which did not touch a.js)
    expect(labels).toEqual({ crossImport: true, breakHazard: true, fixupCoupled: true });
    const clean = dependencyLabels(pair.sideA, { base: null, files: [] }, toImportGraph(scenario.depGraph), null);
    expect(clean).toEqual({ crossImport: false, breakHazard: false, fixupCoupled: null });
  });
});
