import { addIntent, clearIntent, listIntent } from '../state/intent-store.js';

/** `intent add|list|clear`: applies the action to this worktree's declared paths and returns the list after it. */
export async function changeIntent(cwd: string, action: 'add' | 'list' | 'clear', paths: readonly string[]): Promise<string[]> {
  if (action === 'add') return addIntent(cwd, paths);
  if (action === 'clear') return clearIntent(cwd, paths.length > 0 ? paths : undefined);
  return listIntent(cwd);
}
