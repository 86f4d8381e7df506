import { existsSync, type FSWatcher, realpathSync, statSync, watch } from 'node:fs';
import { basename, dirname } from 'node:path';

/**
 * Folders the resident's worktree watcher does not cover — where git's configuration files, the
 * graph cache, the hooks, our own state files and the shell's served logs live
 * (src/app/ready-answers.ts) — watched while an answer is out, so that what rests on them is looked
 * at again the moment one moves instead of on a fast poll, which cost ~1 % of a core on a large
 * repository (docs/decisions/resident.md, "Idle CPU while a shell answer is out").
 *
 * It only says "something here may have moved": the caller compares its own stamps, so a spurious
 * event costs one comparison, and what cannot be watched (a watch the system refuses) is left to the
 * caller's slower poll. In a folder watched for some files (git's configuration in $HOME or /etc,
 * the served log in the git dir) only events that name one of them count: a chatty dotfile or git's
 * own index writes make no look. A symlinked file is watched in its target's folder too (a dotfiles
 * repository), and a folder deleted and made again is watched again (its inode is compared). Folders, not files: a file's watch ends when an
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

/** Which entries of a folder count: the names given, or every one. */
type Names = ReadonlySet<string> | 'any';

interface Armed {
  readonly watcher: FSWatcher;
  readonly ino: bigint;
  names: Names;
}

export class Tripwire {
  /** Each folder asked for, with the names in it that count. */
  private readonly wanted = new Map<string, Names>();
  private readonly armed = new Map<string, Armed>();
  /** Watched folders whose watch reported the folder itself removed. */
  private readonly gone = new Set<string>();
  private scheduled = false;
  private lastLook = 0;
  private closed = false;
  private refused = false;

  /** `onChange` runs once after a burst of events, and at most once per MIN_GAP_MS. */
  constructor(
    private readonly onChange: () => void,
    private readonly log: (line: string) => void,
  ) {}

  /** Watches these files (in their folders, and their symlinks' targets') and every entry of these folders. */
  add(files: readonly string[], folders: readonly string[] = []): void {
    let more = false;
    for (const file of files.flatMap((file) => [file, ...resolved(file)])) more = this.want(dirname(file), new Set([basename(file)])) || more;
    for (const folder of folders) more = this.want(folder, 'any') || more;
    // Nothing new: what is wanted is armed, and every event arms again before its look.
    if (more) this.arm();
  }

  /** false once the system refused a watch: the caller then polls as it did without one. */
  get whole(): boolean {
    return !this.refused;
  }

  close(): void {
    this.closed = true;
    for (const { watcher } of this.armed.values()) watcher.close();
    this.armed.clear();
    this.wanted.clear();
  }

  /** true when this asks for more than was wanted. */
  private want(folder: string, names: Names): boolean {
    const before = this.wanted.get(folder);
    const after = union(before, names);
    this.wanted.set(folder, after);
    return before === undefined || (before !== 'any' && (after === 'any' || after.size > before.size));
  }

  /** Each wanted folder watched — itself, or its parent for its own name while it is absent. */
  private arm(): void {
    if (this.closed) return;
    const targets = new Map<string, Names>();
    for (const [folder, names] of this.wanted) {
      if (existsSync(folder)) targets.set(folder, union(targets.get(folder), names));
      else if (existsSync(dirname(folder))) targets.set(dirname(folder), union(targets.get(dirname(folder)), new Set([basename(folder)])));
    }
    for (const [target, armed] of [...this.armed]) if (this.gone.has(target) || !targets.has(target) || inode(target) !== armed.ino) this.drop(target);
    this.gone.clear();
    for (const [target, names] of targets) {
      const armed = this.armed.get(target);
      if (armed !== undefined) {
        armed.names = names;
        continue;
      }
      const ino = inode(target);
      if (ino === null) continue;
      try {
        const watcher = watch(target, { persistent: false }, (event, name) => {
          // The folder itself went (its watch names it and then hears nothing more): armed again at the next look.
          if (event === 'rename' && name === basename(target)) this.gone.add(target);
          const now = this.armed.get(target)?.names;
          if (now === 'any' || name === null || this.gone.has(target) || now?.has(String(name))) this.schedule();
        });
        watcher.on('error', () => this.drop(target));
        this.armed.set(target, { watcher, ino, names });
      } catch (error) {
        // Gone between the look and the watch: the next look arms it again, or its parent.
        if ((error as NodeJS.ErrnoException)?.code === 'ENOENT') continue;
        this.refused = true;
        this.log(`watching ${target} for the shell's answers failed (${(error as Error)?.message ?? String(error)}): polled instead`);
      }
    }
  }

  private drop(target: string): void {
    this.armed.get(target)?.watcher.close();
    this.armed.delete(target);
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

function union(a: Names | undefined, b: Names): Names {
  if (a === undefined) return b;
  if (a === 'any' || b === 'any') return 'any';
  return new Set([...a, ...b]);
}

/** A symlink's target, when `file` is one. */
function resolved(file: string): string[] {
  try {
    const real = realpathSync(file);
    return real === file ? [] : [real];
  } catch {
    return [];
  }
}

function inode(folder: string): bigint | null {
  try {
    return statSync(folder, { bigint: true }).ino;
  } catch {
    return null;
  }
}
