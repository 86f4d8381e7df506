import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { commitAll, gitIn, pathWithCli, remoteWithClones, removeDir, runCli, writeFiles } from '../helpers/temp-repo.js';

/**
 * Issue 23's whole airspace: one bare remote, three clones (three machines) with two linked
 * worktrees each. Two machines work on the same branch name, one discards an experiment, one
 * deletes a branch it had published, one worktree belongs to a harness whose own core.hooksPath
 * runs none of our hooks, and nothing is pushed. From every worktree's own view: in each colliding
 * pair exactly one agent steers, no dead line of work makes anybody steer, and nobody is told that
 * an agent which runs no hook "has been advised".
 */
const numbered = (n: number) => `${Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n')}\n`;
const FILE = 'docs/session.txt';
const edit = (line: number, tag: string) => ({ [FILE]: numbered(60).replace(`line ${line}\n`, `line ${line} ${tag}\n`) });
const PATH = pathWithCli();

interface Link {
  a: string;
  b: string;
  level: string;
  steer?: string;
  hold?: string;
}
interface Report {
  links: Link[];
  scanned: { ownship: string };
  verdict: { steerFrom: string[]; holdAgainst: string[] };
}

const roots: string[] = [];
afterAll(() => roots.forEach(removeDir));

function worktree(clone: string, name: string, branch: string): string {
  const path = join(clone, '..', `${clone.split('/').pop()}-${name}`);
  gitIn(clone, 'worktree', 'add', '-q', '-b', branch, path, 'main');
  return path;
}

function view(cwd: string): Report {
  const run = runCli(cwd, ['check', '--fetch', '--json']);
  expect(run.stderr).not.toMatch(/bug|internal error/i);
  return JSON.parse(run.stdout) as Report;
}

describe('three machines, two worktrees each', () => {
  it('exactly one steers in every colliding pair, from every view; no dead line of work and no false promise', () => {
    const setup = remoteWithClones({ [FILE]: numbered(60) }, 3);
    roots.push(setup.root);
    const [ada, bo, cy] = setup.clones as [string, string, string];
    for (const clone of [ada, bo, cy]) expect(runCli(clone, ['install', '--force'], { PATH }).status).toBe(0);

    // ada and bo: `feature` on both machines, the same line, nothing pushed.
    for (const [clone, tag] of [
      [ada, 'ada'],
      [bo, 'bo'],
    ] as const) {
      gitIn(clone, 'switch', '-q', '-c', 'feature');
      writeFiles(clone, edit(10, tag));
      expect(runCli(clone, ['beacon', 'publish']).status).toBe(0);
    }
    // ada's experiment: published, then discarded.
    const adaExp = worktree(ada, 'exp', 'exp');
    writeFiles(adaExp, edit(10, 'exp'));
    expect(runCli(adaExp, ['beacon', 'publish']).status).toBe(0);
    gitIn(adaExp, 'checkout', '--', FILE);
    // bo's old branch: committed, published, then the worktree and the branch deleted.
    const boOld = worktree(bo, 'old', 'old');
    writeFiles(boOld, edit(10, 'old'));
    commitAll(boOld, 'old: edit');
    expect(runCli(boOld, ['beacon', 'publish']).status).toBe(0);
    gitIn(bo, 'worktree', 'remove', '--force', boOld);
    gitIn(bo, 'branch', '-q', '-D', 'old');
    // cy: its own work and a harness worktree whose core.hooksPath runs none of our hooks.
    gitIn(cy, 'switch', '-q', '-c', 'cy/work');
    writeFiles(cy, edit(30, 'cy'));
    const harness = worktree(cy, 'harness', 'harness');
    mkdirSync(join(setup.root, 'harness-hooks'), { recursive: true });
    gitIn(cy, 'config', 'extensions.worktreeConfig', 'true');
    gitIn(harness, 'config', '--worktree', 'core.hooksPath', join(setup.root, 'harness-hooks'));
    writeFiles(harness, edit(30, 'harness'));
    // The remaining worktrees: clean, on their own branches.
    const quiet = [worktree(ada, 'two', 'ada/two'), worktree(bo, 'one', 'bo/one'), worktree(bo, 'two', 'bo/two'), worktree(cy, 'two', 'cy/two')];

    // Each machine's network command withdraws its dead lines of work first.
    view(adaExp);
    view(bo);
    const beacons = gitIn(setup.remote, 'for-each-ref', '--format=%(refname)', 'refs/airspace/beacons/').split('\n').filter(Boolean);
    expect(beacons.filter((ref) => ref.endsWith('/exp') || ref.endsWith('/old'))).toEqual([]);
    expect(beacons.filter((ref) => ref.endsWith('/feature'))).toHaveLength(2);

    const worktrees = [ada, adaExp, bo, cy, harness, ...quiet];
    const views = new Map(worktrees.map((cwd) => [cwd, view(cwd)]));
    for (const [cwd, report] of views) {
      // No dead line of work in anybody's steering.
      expect(
        report.verdict.steerFrom.filter((peer) => /^(exp|old)(@|$)/.test(peer)),
        cwd,
      ).toEqual([]);
    }

    // The pair on one branch name, seen from both machines: exactly one steers.
    const adaSteers = views.get(ada)!.verdict.steerFrom.some((peer) => peer.startsWith('feature@'));
    const boSteers = views.get(bo)!.verdict.steerFrom.some((peer) => peer.startsWith('feature@'));
    expect(raWith(views.get(ada)!, 'feature@')).toBe(true);
    expect(raWith(views.get(bo)!, 'feature@')).toBe(true);
    expect(adaSteers).not.toBe(boSteers);

    // The harness pair on cy: both views agree, and the holder is never told the harness was advised.
    const onCy = views.get(cy)!;
    const onHarness = views.get(harness)!;
    const cySteers = onCy.verdict.steerFrom.includes('harness');
    const harnessSteers = onHarness.verdict.steerFrom.includes('cy/work');
    expect(raWith(onCy, 'harness')).toBe(true);
    expect(cySteers).not.toBe(harnessSteers);
    const text = runCli(cy, ['check']).stdout;
    expect(text).not.toMatch(/harness has been advised/);
    if (!cySteers) expect(text).toMatch(/harness runs no airspace hook/);
  });
});

function raWith(report: Report, peer: string): boolean {
  return report.links.some((l) => l.level === 'RA' && (l.a.startsWith(peer) || l.b.startsWith(peer)));
}
