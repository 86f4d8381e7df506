import { describe, expect, it } from 'vitest';
import type { Link } from '../../../src/engine/types.js';
import { graphMessages } from '../../../src/messages/channels.js';
import { REPORT_SCHEMA, type AgentFactsReport, type AirspaceReport } from '../../../src/report/check-report.js';
import { renderReportText } from '../../../src/report/render-text.js';
import { createStyle } from '../../../src/report/terminal-style.js';

/** The text report as a user reads it, from hand-made reports: one situation per test. */
const plain = createStyle(false);

function agent(id: string, kind: AgentFactsReport['kind']): AgentFactsReport {
  return { id, kind, branch: id, tip: null, committedFiles: 1, uncommittedFiles: 0, committedWork: 1, startedAt: null, subjects: [], intent: [] };
}

function link(a: string, b: string, overrides: Partial<Link> = {}): Link {
  return {
    a,
    b,
    risk: 0.9,
    distance: 0.1,
    level: 'RA',
    channels: { overlap: 1, merge: 1 },
    driver: 'merge',
    sharedFiles: [{ path: 'src/x.ts', rangesA: [[10, 12]], rangesB: [[40, 41]], overlap: 1, gap: 0 }],
    evidence: [{ channel: 'merge', text: 'conflict in src/x.ts' }],
    steer: a,
    hold: b,
    ...overrides,
  };
}

function report(
  command: 'check' | 'scan',
  ownship: string | null,
  agents: AgentFactsReport[],
  links: Link[],
  warnings: string[] = [],
  source = 'cache',
  clearWithoutContact = 0,
): AirspaceReport {
  return {
    schema: REPORT_SCHEMA,
    command,
    hook: null,
    agents,
    links,
    advisories: links.filter((l) => l.level !== 'clear'),
    pairs: {
      compared: links.length + clearWithoutContact,
      listed: links.length,
      clearWithoutContact,
      maxRiskWithoutContact: clearWithoutContact > 0 ? 0.35 : null,
    },
    unknown: [],
    positions: {},
    scanned: {
      at: 0,
      ownship,
      includesUncommitted: true,
      peers: { worktrees: 0, branches: agents.length - 1, beacons: 0, explicit: 0 },
      fetch: { attempted: false, ok: null, lastFetchAt: null, ageMs: 1000, remote: true, userFetchAgeMs: null },
      graph: { source, files: 0, stale: false, builtAt: null, changedSinceBuild: 0, warnings },
      channels: ['overlap', 'merge'],
      weights: { overlap: 0.2, merge: 1 },
      skipped: [],
      durationMs: 5,
    },
    verdict: null,
    inbox: [],
  };
}

const clear = (a: string, b: string) => link(a, b, { level: 'clear', risk: 0.1, sharedFiles: [], evidence: [], steer: undefined, hold: undefined });

describe('scan text', () => {
  it('tells a pair of two other agents as that pair, with who steers, never as the user own', () => {
    const text = renderReportText(
      report(
        'scan',
        'me',
        [agent('me', 'ownship'), agent('agent6', 'branch'), agent('baseline-x', 'branch')],
        [link('agent6', 'baseline-x'), clear('me', 'agent6'), clear('me', 'baseline-x')],
      ),
      plain,
    );
    expect(text).toContain('agent6 ↔ baseline-x');
    expect(text).toContain('agent6 steers, baseline-x holds');
    expect(text).toContain('src/x.ts  agent6 10-12  baseline-x 40-41');
    expect(text).not.toMatch(/you have right of way|you must steer|\byou\b/);
  });

  it('counts clear pairs as pairs of agents, not as peers', () => {
    const text = renderReportText(
      report('scan', 'me', [agent('me', 'ownship'), agent('p', 'branch'), agent('q', 'branch')], [link('p', 'q'), clear('me', 'p'), clear('me', 'q')]),
      plain,
    );
    expect(text).toContain('clear: 2 pairs of agents');
    expect(text).not.toContain('clear: 2 peers');
  });

  it('a scan that lists only pairs with contact counts the unlisted ones as clear, as before', () => {
    const agents = [agent('me', 'ownship'), agent('p', 'branch'), agent('q', 'branch')];
    const text = renderReportText(report('scan', 'me', agents, [link('p', 'q')], [], 'cache', 2), plain);
    expect(text).toContain('clear: 2 pairs of agents');
    const none = renderReportText(report('scan', 'me', agents, [], [], 'cache', 3), plain);
    expect(none).toContain('all clear: no traffic near your work');
    expect(none).not.toContain('no other worktree');
  });
});

describe('check text', () => {
  it('a clear peer whose channel could not be computed is not "all clear": the text names the peer and why', () => {
    const agents = [agent('me', 'ownship'), agent('ada', 'branch')];
    const cut = link('me', 'ada', { level: 'clear', risk: 0.1, evidence: [], unknown: [{ channel: 'symbol', reason: 'cut by the budget' }] });
    const text = renderReportText(report('check', 'me', agents, [cut]), plain);
    expect(text).not.toContain('all clear');
    expect(text).toContain('clear: 1 peer');
    expect(text).toContain('unknown: ada: symbol: cut by the budget');
    const checked = renderReportText(report('check', 'me', agents, [{ ...cut, unknown: [] }]), plain);
    expect(checked).toContain('all clear');
  });

  it('the header counts the commits since the trunk, unpushed ones included, not "0 committed"', () => {
    const own = { ...agent('me', 'ownship'), committedFiles: 0, uncommittedFiles: 1, commits: 2 };
    const text = renderReportText(report('check', 'me', [own], []), plain);
    expect(text.split('\n')[0]).toContain('(2 commits since the trunk + 1 uncommitted file)');
    expect(text).not.toContain('0 committed');
  });

  it('the header counts its sources in the singular when there is one: "1 branch", "1 beacon", not "1 branches"', () => {
    const r = report('check', 'me', [agent('me', 'ownship'), agent('ada', 'branch')], []);
    const one = renderReportText({ ...r, scanned: { ...r.scanned, peers: { worktrees: 1, branches: 1, beacons: 1, explicit: 0 } } }, plain);
    expect(one.split('\n')[0]).toContain('· 1 worktree, 1 branch, 1 beacon ·');
    const many = renderReportText({ ...r, scanned: { ...r.scanned, peers: { worktrees: 0, branches: 2, beacons: 3, explicit: 0 } } }, plain);
    expect(many.split('\n')[0]).toContain('· 0 worktrees, 2 branches, 3 beacons ·');
    const noOwnship = renderReportText(report('scan', null, [agent('ada', 'branch')], []), plain);
    expect(noOwnship.split('\n')[0]).toContain('airspace: 1 agent ');
  });

  it('says "import graph not built yet" once, not twice', () => {
    const text = renderReportText(report('check', 'me', [agent('me', 'ownship')], [], [graphMessages.cacheMissing()], 'none'), plain);
    expect(text.match(/not built yet/g)).toHaveLength(1);
    // What helps is the graph build, never `scan` — the command a user may have just run.
    expect(text).toContain('`airspace-hooks graph build`');
    expect(text).not.toMatch(/`scan`/);
  });

  it('explains the ^N insertion-point notation when it is shown', () => {
    const withInsertion = link('me', 'peer', {
      sharedFiles: [{ path: 'a.ts', rangesA: [[185, 184]], rangesB: [[185, 185]], overlap: 1, gap: 0 }],
      steer: 'peer',
      hold: 'me',
    });
    const text = renderReportText(report('check', 'me', [agent('me', 'ownship'), agent('peer', 'worktree')], [withInsertion]), plain);
    expect(text).toContain('you ^185');
    expect(text).toContain('^N = lines inserted just before line N');
    const without = renderReportText(report('check', 'me', [agent('me', 'ownship'), agent('peer', 'worktree')], [link('me', 'peer')]), plain);
    expect(without).not.toContain('^N');
  });

  it('a peer on this machine has been advised; a peer behind the remote sees our work only once we push or publish', () => {
    const local = renderReportText(
      report('check', 'me', [agent('me', 'ownship'), agent('agent-c', 'worktree')], [link('me', 'agent-c', { steer: 'agent-c', hold: 'me' })]),
      plain,
    );
    expect(local).toContain('agent-c has been advised to steer away');
    const remote = renderReportText(
      report('check', 'me', [agent('me', 'ownship'), agent('agent-c', 'beacon')], [link('me', 'agent-c', { steer: 'agent-c', hold: 'me' })]),
      plain,
    );
    expect(remote).not.toContain('has been advised');
    expect(remote).toContain('agent-c is advised to steer away if it runs airspace-hooks, once it sees your work');
    expect(remote).toContain('beacon publish');
  });

  it('the steering side in a worktree that runs no airspace hook is told its push will not be checked; scan marks such a steerer', () => {
    const protection = { protected: false, reason: 'hooks-path-elsewhere' as const, hooksDir: '/h' };
    const me = { ...agent('me', 'ownship'), worktreePath: '/wt/me', protection };
    const own = renderReportText(report('check', 'me', [me, agent('peer', 'worktree')], [link('me', 'peer', { steer: 'me', hold: 'peer' })]), plain);
    expect(own).toContain(
      'git runs no airspace hook in this worktree (core.hooksPath sends git to /h, which has no pre-push hook): your push will not be checked; protect it: cd /wt/me && npx airspace-hooks install --worktree',
    );
    const scan = renderReportText(
      report('scan', null, [{ ...agent('a', 'worktree'), protection }, agent('b', 'worktree')], [link('a', 'b', { steer: 'a', hold: 'b' })]),
      plain,
    );
    expect(scan).toContain('a steers, b holds (a runs no airspace hook: nobody tells it to steer)');
  });

  it("the fix line names the CLI as its coverage found it in that worktree: the main worktree's bin by its path, where npx would ask the registry", () => {
    const fixWith = {
      packageManager: 'pnpm' as const,
      cli: { path: '/repo/node_modules/.bin/airspace-hooks', source: 'main-worktree' as const },
      husky: null,
    };
    const protection = { protected: false, reason: 'hooks-path-elsewhere' as const, hooksDir: '/h', fixWith };
    const me = { ...agent('me', 'ownship'), worktreePath: '/wt/me', protection };
    const own = renderReportText(report('check', 'me', [me, agent('peer', 'worktree')], [link('me', 'peer', { steer: 'me', hold: 'peer' })]), plain);
    expect(own).toContain('protect it: cd /wt/me && /repo/node_modules/.bin/airspace-hooks install --worktree');
    const peer = { ...agent('zz', 'worktree'), worktreePath: '/wt/zz', protection: { ...protection, reason: 'cli-missing' as const } };
    const hold = renderReportText(report('check', 'me', [agent('me', 'ownship'), peer], [link('me', 'zz', { steer: 'zz', hold: 'me' })]), plain);
    expect(hold).toContain('or protect it: cd /wt/zz && pnpm install');
  });

  it('a peer on this machine that runs no airspace hook is never said to be advised: one line says so, with the fix', () => {
    const unprotected = {
      ...agent('zz', 'worktree'),
      worktreePath: '/tmp/my repo-zz',
      protection: { protected: false, reason: 'foreign-hook' as const, hooksDir: '/h', hooksPath: { value: '/h', scope: 'worktree' } },
    };
    const text = renderReportText(report('check', 'me', [agent('me', 'ownship'), unprotected], [link('me', 'zz', { steer: 'zz', hold: 'me' })]), plain);
    expect(text).not.toContain('advised');
    const hold = text.split('\n').filter((line) => line.includes('hold:'));
    expect(hold).toEqual([
      "    hold: you have right of way, but zz runs no airspace hook (core.hooksPath (worktree) sends git to /h, whose pre-push does not run airspace-hooks): nobody will tell it to steer, so coordinate by hand, or protect it: cd '/tmp/my repo-zz' && npx airspace-hooks install --worktree",
    ]);
  });
});

describe('the blocking line carries the bypass of the command that was blocked', () => {
  const blocked = (hook: 'pre-commit' | 'pre-push' | null): string =>
    renderReportText(
      {
        ...report('check', 'me', [agent('me', 'ownship'), agent('agent-c', 'worktree')], [link('me', 'agent-c')]),
        hook,
        verdict: { mode: 'block', steerFrom: ['agent-c'], holdAgainst: [], block: true },
      },
      plain,
    );

  it('a blocked commit names git commit --no-verify, never git push', () => {
    const text = blocked('pre-commit');
    expect(text).toContain('pre-commit blocked by airspace-hooks. Bypass: git commit --no-verify, or AIRSPACE_HOOKS=0 for one command');
    expect(text).not.toContain('git push');
  });

  it('a blocked push names git push --no-verify', () => {
    expect(blocked('pre-push')).toContain('pre-push blocked by airspace-hooks. Bypass: git push --no-verify, or AIRSPACE_HOOKS=0 for one command');
  });

  it('a check run by hand names the bypass of the push it predicts blocked', () => {
    expect(blocked(null)).toContain('blocked: this agent must steer. Bypass: git push --no-verify, or AIRSPACE_HOOKS=0 for one command');
  });
});
