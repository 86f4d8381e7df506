// git for the bench's own setup (not the product's adapter): a fixed identity, no user or system
// config, so the generated repository is the same on every machine.
import { execFileSync } from 'node:child_process';

export const benchGitEnv = (extra = {}) => {
  const env = { ...process.env, ...extra };
  for (const key of Object.keys(env)) if (key.startsWith('GIT_') && !(key in extra)) delete env[key];
  return {
    ...env,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_AUTHOR_NAME: 'Bench',
    GIT_AUTHOR_EMAIL: 'bench@example.com',
    GIT_COMMITTER_NAME: 'Bench',
    GIT_COMMITTER_EMAIL: 'bench@example.com',
    ...extra,
  };
};

export function gitIn(cwd, args) {
  return execFileSync('git', args, { cwd, env: benchGitEnv(), encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] });
}

export function gitInput(cwd, args, input) {
  return execFileSync('git', args, { cwd, env: benchGitEnv(), input, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, stdio: ['pipe', 'pipe', 'pipe'] });
}
