import { describe, expect, it } from 'vitest';
import { summarizeReport } from '../../../src/mcp/summarize.js';
import type { AirspaceReport } from '../../../src/report/check-report.js';

const link = (b: string, level: 'TA' | 'RA', extra: Record<string, unknown> = {}) => ({
  a: 'me',
  b,
  level,
  risk: 0.8,
  sharedFiles: [{ path: 'src/a.ts' }],
  ...extra,
});
const report = (advisories: unknown[], verdict: unknown): AirspaceReport =>
  ({ command: 'check', agents: [], links: advisories, advisories, verdict }) as unknown as AirspaceReport;

describe('the short text of the MCP check tool', () => {
  it('says who must steer, who holds, and marks a predicted RA as a warning; peer text is made harmless', () => {
    const text = summarizeReport(
      report([link('ada', 'RA', { steer: 'me' }), link('bo\u001b[2Jb', 'TA', { predictedRA: true })], {
        steerFrom: ['ada'],
        holdAgainst: [],
        block: true,
        mode: 'block',
      }),
    );
    expect(text.split('\n')).toEqual([
      '2 advisories; you must steer away from ada (pick other files or coordinate first)',
      'RA me ↔ ada risk 0.80: src/a.ts',
      'TA (predicted RA, no evidence yet) me ↔ bo\\u001b[2Jb risk 0.80: src/a.ts',
    ]);
  });

  it('never says an agent that runs no airspace hook was told to steer', () => {
    const text = summarizeReport(
      report([link('ada', 'RA', { hold: 'me' }), link('zz', 'RA', { hold: 'me' })], {
        steerFrom: [],
        holdAgainst: ['ada', 'zz'],
        unadvised: ['zz'],
        block: false,
        mode: 'block',
      }),
    );
    expect(text.split('\n')[0]).toBe(
      '2 advisories; you hold course, ada is advised to steer if running airspace-hooks; zz runs no airspace hook: nobody tells it to steer, coordinate by hand (airspace-hooks doctor says how to protect it)',
    );
  });

  it('is one line when clear', () => {
    expect(summarizeReport(report([], { steerFrom: [], holdAgainst: [], block: false, mode: 'block' }))).toBe('clear: no traffic near this worktree');
  });
});
