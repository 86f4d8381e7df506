import { existsSync, type FSWatcher, watch } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Folders the resident's worktree watcher does not cover — where git's configuration files, the
 * graph cache, the hooks, our own state files and the shell's served logs live
 * (src/app/ready-answers.ts) — watched while an answer is out, so that what rests on them is looked
 * at again the moment one moves instead of on a fast poll, which cost ~1 % of a core on a large
 * repository (docs/decisions/resident.md, "Idle CPU while a shell answer is out").
 *
 * It only says "something in one of these folders may have moved": the caller compares its own
 * stamps, so a spurious event costs one comparison, and what cannot be watched (a watch the system
 * refuses) is left to the caller's slower poll. Folders, not files: a file's watch ends when an
 * atomic write renames another file over it. A folder that does not exist yet is watched through
 * its parent (a linked worktree's `airspace/` before its first intent), and every event re-arms
 * before the caller compares, so a folder created and then written to is watched before anything
 * written in it can be missed; one whose parent is absent too is left to the poll (a walk further
 * up ends in folders such as /tmp, whose every event would be a comparison). A busy folder costs at
 * most one comparison per MIN_GAP_MS.
 *
 * `fs.watch` rather than chokidar (the worktree watcher's library): its watch is armed when the
 * call returns, so a stamp taken after `add` misses nothing, where chokidar arms asynchronously and
 * says `ready` once per watcher; and none of chokidar's recursion or polling is wanted here.
 */
/** At most one look per this long, however busy a watched folder is. */
const MIN_GAP_MS = 50;

export class Tripwire {
  /** Each folder asked for, and the folder watched for it (itself, or its parent while it is absent). */
  private readonly wanted = new Map<string, string | null>();
  private readonly watchers = new Map<string, FSWatcher>();
  private scheduled = false;
  private lastLook = 0;
  private closed = false;
  private refused = false;

  /** `onChange` runs once after a burst of events, and at most once per MIN_GAP_MS. */
  constructor(
    private readonly onChange: () => void,
    private readonly log: (line: string) => void,
  ) {}

  /** Watches the folders of these files, and these folders themselves. */
  add(files: readonly string[], folders: readonly string[] = []): void {
    for (const folder of [...files.map((file) => dirname(file)), ...folders]) if (!this.wanted.has(folder)) this.wanted.set(folder, null);
    this.arm();
  }

  /** false once the system refused a watch: the caller then polls as it did without one. */
  get whole(): boolean {
    return !this.refused;
  }

  close(): void {
    this.closed = true;
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
    this.wanted.clear();
  }

  private arm(): void {
    if (this.closed) return;
    for (const folder of this.wanted.keys()) {
      const target = existsSync(folder) ? folder : existsSync(dirname(folder)) ? dirname(folder) : null;
      this.wanted.set(folder, target);
      if (target === null || this.watchers.has(target)) continue;
      try {
        const watcher = watch(target, { persistent: false }, () => this.schedule());
        watcher.on('error', () => this.drop(target));
        this.watchers.set(target, watcher);
      } catch (error) {
        this.refused = true;
        this.log(`watching ${target} for the shell's answers failed (${(error as Error)?.message ?? String(error)}): polled instead`);
      }
    }
    // A folder that went away, or one no longer the nearest for what it stood for, is let go.
    const used = new Set(this.wanted.values());
    for (const target of [...this.watchers.keys()]) if (!used.has(target) || !existsSync(target)) this.drop(target);
  }

  private drop(target: string): void {
    this.watchers.get(target)?.close();
    this.watchers.delete(target);
  }

  private schedule(): void {
    if (this.scheduled || this.closed) return;
    this.scheduled = true;
    const look = setTimeout(
      () => {
        this.scheduled = false;
        if (this.closed) return;
        this.lastLook = Date.now();
        this.arm();
        this.onChange();
      },
      Math.max(0, this.lastLook + MIN_GAP_MS - Date.now()),
    );
    look.unref();
  }
}
