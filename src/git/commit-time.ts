import { git, runGit } from './exec-git.js';
import { objectInfo } from './read-objects.js';

const OID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

/** Committer time (epoch ms) of a revision, or null when it names no commit. */
export async function commitTime(cwd: string, revision: string): Promise<number | null> {
  // A leading dash would be read as an option: such a name is no revision of ours.
  if (revision.startsWith('-')) return null;
  const seconds = await git(['log', '-1', '--format=%ct', '--end-of-options', `${revision}^{commit}`, '--'], { cwd, okCodes: [128] });
  return /^\d+$/.test(seconds) ? Number(seconds) * 1000 : null;
}

/** Whether a full object id (from untrusted data, e.g. a beacon) names a commit present here. */
export async function hasCommit(cwd: string, sha: string): Promise<boolean> {
  if (!OID.test(sha)) return false;
  const [info] = await objectInfo(cwd, [`${sha}^{commit}`]);
  return info?.type === 'commit';
}

/** The first parent of a ref's commit, or null when it has none (or the ref is missing). */
export async function firstParent(cwd: string, ref: string): Promise<string | null> {
  const result = await runGit(['rev-parse', '-q', '--verify', '--end-of-options', `${ref}^1`], { cwd, okCodes: [1, 128] });
  const parent = result.stdout.toString('utf8').trim();
  return result.code === 0 && OID.test(parent) ? parent : null;
}
