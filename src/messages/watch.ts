/** Sentences of `watch`. */
export const watchMessages = {
  footer: (worktrees: number, at: number) =>
    `watching ${worktrees} worktree${worktrees === 1 ? '' : 's'} and the git dir · updated ${new Date(at).toLocaleTimeString()} · Ctrl-C to stop`,
  scanFailed: (detail: string) => `airspace-hooks watch: scan failed: ${detail} (still watching)`,
  badDebounce: (value: number) => `--debounce must be a whole number of ms from 0 to 60000 (got ${value})`,
};
