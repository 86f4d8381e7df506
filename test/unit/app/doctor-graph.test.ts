import { describe, expect, it } from 'vitest';
import type { GraphHealth } from '../../../src/graph/graph-health.js';
import { graphFindings } from '../../../src/app/doctor.js';

/** doctor's graph and TypeScript findings, worded from graph-health's facts (one source of truth). */
function health(overrides: Partial<GraphHealth>): GraphHealth {
  return {
    ok: true,
    typescript: { available: false, version: undefined, readWithOxc: false },
    sources: { files: 40, typescript: 0 },
    tsconfig: undefined,
    cache: { path: '/x', builtAt: 1, files: 40, edges: 30, changedSinceBuild: 0 },
    warnings: [],
    ...overrides,
  };
}

describe('doctor on TypeScript', () => {
  it('a pure JavaScript repository without TypeScript gets no warning', () => {
    const findings = graphFindings(health({}));
    expect(findings.filter((f) => f.level !== 'ok')).toEqual([]);
    expect(findings.find((f) => f.topic === 'typescript')?.text).toContain('no TypeScript files');
  });

  it('TypeScript files without a usable TypeScript: one warning, with the count and the fix, not repeated as a graph warning', () => {
    const findings = graphFindings(
      health({
        sources: { files: 40, typescript: 12 },
        warnings: [{ code: 'typescript-missing', message: 'import graph: 12 TypeScript files but no usable TypeScript compiler' }],
      }),
    );
    const warned = findings.filter((f) => f.level !== 'ok');
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatchObject({ level: 'warn', topic: 'typescript', fix: 'npm i -D typescript@5' });
    expect(warned[0]?.text).toContain('12 TypeScript files');
  });

  it('TypeScript files without a compiler but with oxc-parser: ok, nothing to install (issue 26, item 3)', () => {
    const findings = graphFindings(health({ sources: { files: 40, typescript: 12 }, typescript: { available: false, version: undefined, readWithOxc: true } }));
    expect(findings.filter((f) => f.level !== 'ok')).toEqual([]);
    const typescript = findings.find((f) => f.topic === 'typescript');
    expect(typescript?.text).toContain('oxc-parser reads the imports of the 12 TypeScript files');
    expect(typescript?.fix).toBeUndefined();
  });

  it('advice that fits the project: its manager, its declared TypeScript, none for TypeScript 7', () => {
    const missing = (declared: { range: string; usable: boolean } | undefined, pm: 'npm' | 'pnpm') =>
      graphFindings(
        health({
          sources: { files: 40, typescript: 12 },
          typescript: { available: false, version: undefined, readWithOxc: false, ...(declared ? { declared } : {}) },
        }),
        'pnpm exec airspace-hooks',
        pm,
      ).find((f) => f.topic === 'typescript')?.fix;
    expect(missing({ range: '^6.0.0', usable: true }, 'pnpm')).toBe('pnpm install');
    expect(missing(undefined, 'pnpm')).toBe('pnpm add -D typescript@5');
    expect(missing({ range: '^7.0.0', usable: false }, 'pnpm')).toBeUndefined();
  });

  it('a cache not built yet is said once', () => {
    const findings = graphFindings(
      health({
        cache: { path: '/x', builtAt: undefined, files: 0, edges: 0, changedSinceBuild: 0 },
        warnings: [{ code: 'cache-missing', message: 'import graph: not built yet' }],
      }),
    );
    expect(findings.filter((f) => /not built yet/.test(f.text))).toHaveLength(1);
  });
  it('a fix line runs our bin the way the project does: a bare airspace-hooks is not on PATH after npm i -D', () => {
    const unbuilt = health({ cache: { path: '/x', builtAt: undefined, files: 0, edges: 0, changedSinceBuild: 0 } });
    expect(graphFindings(unbuilt, 'pnpm exec airspace-hooks').find((f) => f.topic === 'import graph')?.fix).toMatch(/^pnpm exec airspace-hooks graph build/);
    expect(graphFindings(unbuilt).find((f) => f.topic === 'import graph')?.fix).toMatch(/^npx airspace-hooks graph build/);
  });
});
