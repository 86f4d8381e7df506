import { type AddedIntent, addIntent, clearIntent, listIntent } from '../state/intent-store.js';

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
