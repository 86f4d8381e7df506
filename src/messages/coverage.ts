import type { CoverageReason, HookProtection } from '../install/hook-coverage.js';

/**
 * Wording of hook coverage (src/install/hook-coverage.ts): why git runs no airspace hook in a
 * worktree, and the one command that fixes it, written to work from any directory (`cd <path> &&`).
 */
const hooksPath = (p: HookProtection): string => (p.hooksPath?.scope ? `core.hooksPath (${p.hooksPath.scope})` : 'core.hooksPath');

const WHY: Record<CoverageReason, (p: HookProtection) => string> = {
  'nothing-installed': () => 'no airspace hook is installed',
  'hooks-path-elsewhere': (p) => `${hooksPath(p)} sends git to ${p.hooksDir}, which has no pre-push hook`,
  'foreign-hook': (p) => `${hooksPath(p)} sends git to ${p.hooksDir}, whose pre-push does not run airspace-hooks`,
  'hook-not-executable': (p) => `${p.hooksDir}/pre-push is not executable, so git skips it`,
  'husky-without-airspace': () => 'husky runs its hooks and .husky/pre-push does not call airspace-hooks',
  'husky-runtime-missing': (p) => `husky's generated ${p.hooksDir} is missing there (it is gitignored)`,
  'block-unreachable': () => 'the husky script exits before the airspace-hooks block',
  'manager-without-airspace': () => 'its hook manager runs the hooks and its config does not call airspace-hooks',
  'cli-missing': () => 'its hook cannot find the airspace-hooks CLI (no node_modules there, none on PATH)',
};

/** A path as one shell word. */
function shellWord(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
}

export const coverageMessages = {
  why: (p: HookProtection): string => (p.reason ? WHY[p.reason](p) : 'it runs airspace-hooks'),
  /** The command that protects the worktree at `path`, runnable from anywhere. */
  fix: (path: string, p: HookProtection): string => {
    const cd = `cd ${shellWord(path)} && `;
    switch (p.reason) {
      case 'cli-missing':
        return `${cd}npm install`;
      case 'husky-runtime-missing':
        return `${cd}npx husky`;
      case 'hook-not-executable':
        return `chmod +x ${shellWord(`${p.hooksDir}/pre-push`)}`;
      case 'hooks-path-elsewhere':
      case 'foreign-hook':
        // Our shims join that worktree's own hooks dir; the hooks already there keep running first.
        return `${cd}npx airspace-hooks install --worktree`;
      default:
        return `${cd}npx airspace-hooks install`;
    }
  },
  /** The ONE line the agent with right of way reads when the other side will never be advised. */
  holdUnprotected: (peer: string, why: string, fix: string) =>
    `hold: you have right of way, but ${peer} runs no airspace hook (${why}): nobody will tell it to steer, so coordinate by hand, or protect it: ${fix}`,
  /** scan: a pair whose steering agent will never be told. */
  steerPairUnprotected: (pair: string, steer: string) => `${pair} (${steer} runs no airspace hook: nobody tells it to steer)`,
  /** The steering side, when its own worktree runs no airspace hook: its push will not be checked. */
  ownUnprotected: (why: string, fix: string) => `git runs no airspace hook in this worktree (${why}): your push will not be checked; protect it: ${fix}`,
  /** doctor, one finding per unprotected worktree. */
  worktreeUnprotected: (path: string, branch: string | null, why: string) => `${path}${branch ? ` (${branch})` : ''} runs no airspace hook on push: ${why}`,
  worktreesProtected: (n: number) => `airspace-hooks runs on push in ${n === 1 ? 'this worktree' : `all ${n} worktrees`}`,
  worktreesTopic: 'worktrees',
};
