import { loadConfig } from '../config/load-config.js';
import type { AirspaceConfig } from '../config/defaults.js';
import { AirspaceError } from '../errors.js';
import { commitTime } from '../git/commit-time.js';
import { resolveRepo, type RepoInfo } from '../git/resolve-repo.js';
import { cliMessages } from '../messages/command-line.js';

/** The repository a command runs in and its validated configuration: the first step of every pipeline. */
export async function openRepository(cwd: string, options: { inheritRepoEnv?: boolean } = {}): Promise<{ repo: RepoInfo; config: AirspaceConfig }> {
  const repo = await resolveRepo(cwd, options);
  return { repo, config: await loadConfig(repo.toplevel) };
}

/** `--at` takes an ISO 8601 time or any revision (its committer time), as epoch ms. */
export async function resolveMoment(cwd: string, at: string): Promise<number> {
  const time = /^\d{4}-\d{2}-\d{2}/.test(at) ? Date.parse(at) : await commitTime(cwd, at);
  if (time === null || Number.isNaN(time)) throw new AirspaceError('usage', 'bad-time', cliMessages.badTime(at));
  return time;
}
