import { realpath } from 'node:fs/promises';
import type { Sensing } from '../run/sensing.js';
import { type AddedIntent, addIntent, addIntentAt, clearIntent, listIntent } from '../state/intent-store.js';

/** `intent add|list|clear`: applies the action to this worktree's declared paths and returns the list after it. */
export async function changeIntent(cwd: string, action: 'add' | 'list' | 'clear', paths: readonly string[]): Promise<string[]> {
  if (action === 'add') return (await addIntent(cwd, paths)).paths;
  if (action === 'clear') return clearIntent(cwd, paths.length > 0 ? paths : undefined);
  return listIntent(cwd);
}

/** `intent add --ttl`: declares paths that expire after `ttlMs`, and says which of them are new. */
export async function declareIntent(cwd: string, paths: readonly string[], ttlMs: number): Promise<AddedIntent> {
  return addIntent(cwd, paths, Date.now(), { ttlMs });
}

/**
 * `intent add --ttl` then `check` in one run, as the resident's edit question does it, with one
 * `git rev-parse` for both (each costs a spawn of the large resident process besides git's own
 * time; docs/decisions/resident.md, "The edit check, piece by piece"): the returned sensing declares
 * the paths when the run's stage 1 starts, where the worktree is known from the run's own
 * `rev-parse` (src/run/open-repository.ts) and no stage has read an intent yet — stage 2 is the
 * first (the ownship's and its siblings', src/run/gather-inputs.ts); before stage 1 only a fetching
 * run's beacon listing reads the intent (its areas, src/run/collect-traffic.ts), and the edit
 * question never fetches — so the run judges the state `check` judges after `intent add`.
 * `declared()` is what was added; a run that never reached stage 1 (the check judged as a hook
 * that is off, or a run that threw before it: a configuration that does not load) declares when
 * it is called, as `intent add` would have.
 */
export function declareIntentInRun(cwd: string, paths: readonly string[], ttlMs: number, sensing: Sensing): IntentInRun {
  let declaring: Promise<AddedIntent> | undefined;
  return {
    sensing: {
      openRepository: (...args) => sensing.openRepository(...args),
      collectTraffic: async (input) => {
        if (input.target === null) declaring ??= declareAt(cwd, input.repo, paths, ttlMs);
        await declaring;
        return sensing.collectTraffic(input);
      },
      readPeerBeacons: (input) => sensing.readPeerBeacons(input),
      graphForRun: (...args) => sensing.graphForRun(...args),
      computeGitChannels: (input) => sensing.computeGitChannels(input),
    },
    declared: () => declaring ?? declareIntent(cwd, paths, ttlMs),
  };
}

export interface IntentInRun {
  readonly sensing: Sensing;
  /** After the run: the paths this declaration added. */
  readonly declared: () => Promise<AddedIntent>;
}

/**
 * The paths are read against the cwd as `intent add` reads them (its `--show-prefix`): the run's
 * facts give the top level and the git dir, not the prefix, so a cwd below the top level asks git.
 */
async function declareAt(
  cwd: string,
  repo: { readonly toplevel: string; readonly gitDir: string },
  paths: readonly string[],
  ttlMs: number,
): Promise<AddedIntent> {
  const here = await realpath(cwd).catch(() => null);
  if (here !== repo.toplevel) return declareIntent(cwd, paths, ttlMs);
  return addIntentAt({ toplevel: repo.toplevel, prefix: '', gitDir: repo.gitDir }, paths, Date.now(), { ttlMs });
}
