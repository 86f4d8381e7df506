/**
 * Hand-built ScanResults for the radar tests: a small repository's file cloud, a few agents and
 * every pair linked, with names that try to break out of the page (they must show up as text).
 */
import { scanAirspace } from '../../src/engine/index.js';
import type { AdvisoryLevel, Agent, ImportGraph, Link, ScanResult, Vec3 } from '../../src/engine/types.js';

export const HOSTILE_AGENT = '</script><img src=x onerror="window.__pwned=1">';
export const HOSTILE_PATH = 'src/<b>bold</b>\u2028line.ts';

export interface FixtureAgent {
  readonly id: string;
  readonly at: Vec3;
}

export function fileCloud(count: number): Record<string, Vec3> {
  const dirs = ['src/engine', 'src/git', 'src/report', 'test/unit', 'docs'];
  const cloud: Record<string, Vec3> = {};
  for (let i = 0; i < count; i++) {
    const dir = dirs[i % dirs.length]!;
    const angle = (i / count) * Math.PI * 2 * 3;
    const base = dirs.indexOf(dir) * 1.3 - 2.6;
    cloud[`${dir}/file-${i}.ts`] = [base + Math.cos(angle) * 0.8, Math.sin(i * 0.7) * 1.2, Math.sin(angle) * 0.8 + (i % 3) * 0.3];
  }
  cloud[HOSTILE_PATH] = [0.5, 0.5, 0.5];
  return cloud;
}

function level(risk: number): AdvisoryLevel {
  return risk >= 0.7 ? 'RA' : risk >= 0.35 ? 'TA' : 'clear';
}

/** Every pair of agents linked; the risk falls with the distance between them. */
export function scanOf(agents: readonly FixtureAgent[], files: Record<string, Vec3>): ScanResult {
  const links: Link[] = [];
  for (let i = 0; i < agents.length; i++) {
    for (let j = i + 1; j < agents.length; j++) {
      const a = agents[i]!;
      const b = agents[j]!;
      const d = Math.hypot(a.at[0] - b.at[0], a.at[1] - b.at[1], a.at[2] - b.at[2]);
      const risk = Math.max(0.02, Math.min(0.95, 1 - d / 4));
      const lvl = level(risk);
      const shared =
        lvl === 'clear'
          ? []
          : [
              {
                path: 'src/engine/file-0.ts',
                rangesA: [
                  [10, 24],
                  [40, 40],
                ] as const,
                rangesB: [[20, 30]] as const,
                overlap: 0.45,
                gap: 0,
              },
              { path: HOSTILE_PATH, overlap: 1, gap: 0 },
            ];
      links.push({
        a: a.id,
        b: b.id,
        risk,
        distance: 1 - risk,
        level: lvl,
        channels: { overlap: lvl === 'clear' ? 0 : risk, dependency: risk * 0.6, tree: 0.3, mergeTree: lvl === 'RA' ? 1 : 0 },
        driver: lvl === 'clear' ? 'tree' : 'overlap',
        sharedFiles: shared,
        ...(lvl === 'RA' ? { hold: a.id, steer: b.id, unknown: [{ channel: 'symbols', reason: 'parser timed out' }] } : {}),
        ...(lvl === 'TA' ? { closureRate: 0.012, escalated: false } : {}),
      });
    }
  }
  const count = (l: AdvisoryLevel): number => links.filter((x) => x.level === l).length;
  return {
    advisories: links.filter((l) => l.level !== 'clear'),
    links,
    positions: Object.fromEntries(agents.map((a) => [a.id, a.at])),
    fileCoordinates: files,
    counts: { agents: agents.length, pairs: links.length, clear: count('clear'), TA: count('TA'), RA: count('RA') },
  };
}

/** A three-step story: far apart, two converge (TA), collision imminent (RA). */
export function storyScans(): ScanResult[] {
  const files = fileCloud(60);
  return [
    scanOf(
      [
        { id: 'agent/alpha', at: [-3, 0, 0] },
        { id: 'agent/bravo', at: [3, 0.5, 0] },
        { id: HOSTILE_AGENT, at: [0, -1, 3] },
        { id: 'human/dana', at: [0, 1.5, -3] },
      ],
      files,
    ),
    scanOf(
      [
        { id: 'agent/alpha', at: [-1.2, 0, 0] },
        { id: 'agent/bravo', at: [1.2, 0.3, 0] },
        { id: HOSTILE_AGENT, at: [0, -1, 3.5] },
        { id: 'human/dana', at: [0, 1.5, -3.5] },
      ],
      files,
    ),
    scanOf(
      [
        { id: 'agent/alpha', at: [-0.3, 0, 0] },
        { id: 'agent/bravo', at: [0.3, 0.1, 0.1] },
        { id: HOSTILE_AGENT, at: [0, -1, 3.5] },
      ],
      files,
    ),
  ];
}

/**
 * Three agents, two RA links of the same risk from ada: to bo through a symbol collision (bo's new
 * code calls what ada removed), to cy through shared lines. Only the first may be drawn as a symbol.
 */
export function symbolScan(): ScanResult {
  const scan = scanOf(
    [
      { id: 'ada', at: [-3, 0, 0] },
      { id: 'bo', at: [1.5, 0, -2] },
      { id: 'cy', at: [-1, 0, 3] },
    ],
    {},
  );
  const ra = (link: Link): Link => ({ ...link, risk: 0.9, distance: 0.1, level: 'RA', hold: link.a, steer: link.b });
  const links = scan.links.flatMap((link): Link[] => {
    if (link.a === 'ada' && link.b === 'bo') {
      const collision = {
        symbol: 'createSession',
        change: 'removed' as const,
        details: [],
        changedBy: 'ada',
        usedBy: 'bo',
        declaration: { file: 'src/auth/session.ts', line: 1 },
        use: { file: 'src/api/admin.ts', line: 3 },
        args: 1,
      };
      return [{ ...ra(link), sharedFiles: [], driver: 'symbol', symbols: [collision] } as Link];
    }
    if (link.a === 'ada' && link.b === 'cy') return [ra(link)];
    return [];
  });
  return { ...scan, links, advisories: links, counts: { agents: 3, pairs: links.length, clear: 0, TA: 0, RA: links.length } };
}

/** A small generated repository for the real engine: folders of files, an import chain, five agents. */
export function generatedAirspace(): { agents: Agent[]; graph: ImportGraph } {
  const dirs = ['src/engine', 'src/git', 'src/report', 'src/cli', 'test/unit', 'docs'];
  const files = dirs.flatMap((dir) => Array.from({ length: 12 }, (_, i) => `${dir}/module-${i}.ts`));
  const adjacency: Record<string, string[]> = {};
  files.forEach((file, i) => {
    adjacency[file] = [files[(i + 1) % files.length]!, files[(i * 7) % files.length]!];
  });
  const edit = (path: string, start: number): { path: string; ranges: [number, number][] } => ({ path, ranges: [[start, start + 12]] });
  const agents: Agent[] = [
    { id: 'agent/alpha', files: [edit('src/engine/module-1.ts', 10), edit('src/engine/module-2.ts', 40)], committedWork: 3 },
    { id: 'agent/bravo', files: [edit('src/engine/module-1.ts', 15), edit('src/engine/module-3.ts', 1)], committedWork: 1 },
    { id: 'agent/charlie', files: [edit('src/report/module-4.ts', 1)] },
    { id: 'human/dana', files: [edit('docs/module-0.ts', 1), edit('docs/module-5.ts', 30)] },
    { id: 'agent/echo', files: [edit('src/git/module-7.ts', 100)], intent: ['src/git/module-8.ts'] },
  ];
  return { agents, graph: { adjacency } };
}

/** A file name that tries to become markup on the page (it must show up as text in a badge). */
export const HOSTILE_FILE = 'packages/shared/src/<img src=x onerror="window.__pwned=1">.ts';

/**
 * The vue core case, scored by the real engine: the ownship and a peer edit the same lines of
 * packages/shared/src/general.ts (and both touch a file with a hostile name), `git merge-tree`
 * saw the conflict (the evidence an RA needs), a third edits other lines of that file, and three
 * more agents work elsewhere. The
 * embedding puts the colliding pair on one point (R = 1, so D = 0).
 */
export function vueLikeAirspace(): { scan: ScanResult; ownship: string } {
  const packages = ['shared', 'reactivity', 'runtime-core', 'runtime-dom', 'compiler-core', 'compiler-sfc'];
  const files = packages.flatMap((name) =>
    ['index.ts', 'general.ts', 'utils.ts', 'component.ts', 'renderer.ts', 'effect.ts'].map((file) => `packages/${name}/src/${file}`),
  );
  files.push(HOSTILE_FILE);
  const adjacency: Record<string, string[]> = {};
  for (const file of files) {
    // Every package imports the shared helpers, and each package's index its own modules.
    const [, name] = file.split('/');
    adjacency[file] = file.endsWith('/index.ts') ? files.filter((f) => f.startsWith(`packages/${name}/`) && f !== file) : ['packages/shared/src/general.ts'];
  }
  const edit = (path: string, start: number, end: number): { path: string; ranges: [number, number][] } => ({ path, ranges: [[start, end]] });
  const ownship = 'fix/shared-general';
  const agents: Agent[] = [
    { id: ownship, files: [edit('packages/shared/src/general.ts', 10, 14), edit(HOSTILE_FILE, 1, 3)], committedWork: 2 },
    { id: 'feat/general-helpers', files: [edit('packages/shared/src/general.ts', 12, 20), edit(HOSTILE_FILE, 2, 4)], committedWork: 1 },
    { id: 'chore/shared-types', files: [edit('packages/shared/src/general.ts', 60, 75), edit('packages/shared/src/utils.ts', 1, 30)] },
    { id: 'fix/runtime-renderer', files: [edit('packages/runtime-core/src/renderer.ts', 300, 340)] },
    { id: 'refactor/reactivity-effect', files: [edit('packages/reactivity/src/effect.ts', 40, 90)] },
    { id: 'main', files: [edit('packages/compiler-sfc/src/utils.ts', 1, 5)] },
  ];
  const scan = scanAirspace(
    agents,
    { adjacency },
    {
      now: Date.UTC(2026, 0, 1),
      // The seed's τ_TA, so the third agent on general.ts raises Traffic Advisories (two badges more to place).
      tauTA: 0.35,
      external: [{ a: 'feat/general-helpers', b: ownship, channel: 'merge', value: 1, evidence: 'git merge-tree: packages/shared/src/general.ts conflicts' }],
    },
  );
  return { scan, ownship };
}
