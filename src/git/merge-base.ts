import { isAirspaceError } from '../errors.js';
import { gitMessages } from '../messages/command-line.js';
import { runGit } from './exec-git.js';

export type MergeBaseResult = { readonly base: string } | { readonly base: null; readonly reason: string };

/**
 * The pair's common ancestor, the origin of the base coordinates both working sets are taken in.
 * With several best common ancestors (criss-cross merges) `git merge-base` without `--all` prints
 * one of them; we take it — the ranges stay comparable because both sides use the same one.
 * Exit 1 with no output means "no common history" (unrelated roots, or cut off by a shallow clone).
 */
export async function mergeBase(cwd: string, a: string, b: string): Promise<MergeBaseResult> {
  try {
    const result = await runGit(['merge-base', '--end-of-options', a, b], { cwd, okCodes: [1] });
    const base = result.stdout.toString('utf8').trim().split('\n')[0] ?? '';
    if (result.code === 1 || base === '') return { base: null, reason: gitMessages.noMergeBase(a, b) };
    return { base };
  } catch (error) {
    if (!isAirspaceError(error)) throw error;
    return { base: null, reason: gitMessages.mergeBaseFailed(a, b, error.message) };
  }
}

/** Whether `ancestor` is reachable from `descendant` (both full object ids or ref names). */
export async function isAncestor(cwd: string, ancestor: string, descendant: string): Promise<boolean> {
  const result = await runGit(['merge-base', '--is-ancestor', '--end-of-options', ancestor, descendant], { cwd, okCodes: [1, 128] });
  return result.code === 0;
}
