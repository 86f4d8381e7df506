import { type Dirent, existsSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { writeFileAtomicSync } from '../fs/atomic-write.js';
import { indexChecksum, indexChecksumOnceTreed } from '../git/index-fingerprint.js';
import { resolveRepo } from '../git/resolve-repo.js';
import { colorEnabled } from '../report/terminal-style.js';
import { envKeyText, posixCksum, READY_FILE, readyFileText, SERVED_FILE, servedLines, shellIndexKey, type ReadyPart } from '../resident/ready-file.js';
import type { RunQueue } from '../resident/run-queue.js';
import { stampFiles } from '../resident/stamp-files.js';
import { Tripwire } from '../resident/tripwire.js';
import type { WarmAirspace } from '../resident/warm-airspace.js';
import { STATE_FOLDER } from '../state/state-dirs.js';
import { renderReadyPreCommit, type ReadyRender } from './ready-answer.js';

/**
 * Answers the shell serves (docs/decisions/resident.md): a pre-commit that starts no Node. After
 * each re-score the resident renders, for every worktree whose hook asked it before, the answer
 * that worktree's next pre-commit would get (src/app/ready-answer.ts), and writes it with what it
 * rests on into that worktree's git dir; bin/airspace-hooks-ready serves it when HEAD, the index's
 * bytes, the hook's environment and terminal, the resident's pid and the clock still match. The
 * resident removes every file the moment its watcher reports anything, and when what no watcher
 * sees moves (git's configuration, the graph cache, the hook coverage, our state files): their
 * folders are watched while a file is out (src/resident/tripwire.ts), and all of it is polled
 * slowly besides, for where the coverage finds the CLI (PATH, node_modules), which is not watched.
 * A commit the shell answered is then recorded as the hook would have recorded it — its risk
 * history at the moment it was served — from the same memo, and its text compared.
 */
export interface ReadyAnswersOptions {
  readonly queue: RunQueue;
  readonly warm: WarmAirspace;
  readonly commonDir: string;
  readonly log: (line: string) => void;
  /** A commit was answered: the resident is in use. */
  readonly touch: () => void;
  /** How often everything is looked at again besides the watched folders (default BACKSTOP_MS). */
  readonly backstopMs?: number;
}

interface Asker {
  readonly env: Readonly<Record<string, string>>;
  readonly tty: { readonly out: boolean; readonly err: boolean };
}

interface Written {
  /** Names this answer in the served log (the shell writes it back). */
  readonly id: string;
  readonly toplevel: string;
  readonly gitDir: string;
  readonly parts: readonly ReadyPart[];
  readonly comparable: string;
  /** What it rests on that no watcher sees, as `keyNow()` gives it: written when it was rendered. */
  readonly key: string;
  readonly keyNow: () => string;
  readonly watchable: Rendered['vouch']['watchable'];
  readonly until: number;
  readonly record: (at: number) => Promise<ReadyRender | null>;
  readonly env: Readonly<Record<string, string>>;
  /** The worktree's index, and the shell keys of it the answer accepts (Rendered['indexKeys']). */
  readonly indexFile: string;
  readonly indexKeys: readonly string[];
}

interface Rendered {
  readonly parts: readonly ReadyPart[];
  readonly comparable: string;
  readonly key: string;
  readonly until: number;
  readonly gitDir: string;
  readonly head: string;
  /**
   * The index keys the shell accepts: the index judged and, when `git add` left its cache-tree
   * incomplete, the same index once `git commit` has filled it — git writes that before it runs
   * pre-commit, so the answer of the usual edit, add, commit was never served. Same entries, the
   * same judgement (src/git/index-fingerprint.ts `indexChecksumOnceTreed`).
   */
  readonly indexKeys: readonly string[];
  readonly indexFile: string;
  readonly vouch: NonNullable<ReturnType<WarmAirspace['vouchFor']>>;
}

/** How long a rendered answer may be served: the longest of these over which the template does not change. */
const WINDOWS_MS = [120_000, 30_000, 10_000];
/**
 * While a file is out, what no watcher sees is looked at again on every event in its folders, and
 * this often besides (what the coverage finds on PATH or in node_modules, a folder the system would
 * not watch); the served logs are read on the same beat. At 250 ms for everything this poll was
 * about 1 % of a core on typeorm + 3 worktrees (docs/decisions/resident.md).
 */
const BACKSTOP_MS = 2_000;
/** The beat when a folder could not be watched: the poll alone keeps the files honest. */
const POLL_MS = 250;
/** Served logs are read this long after the last file went (the commit that was served moves HEAD at once). */
const SERVED_GRACE_MS = 10_000;
const MAX_SERVED_BYTES = 64 * 1024;

export class ReadyAnswers {
  private readonly askers = new Map<string, Asker>();
  private readonly written = new Map<string, Written>();
  /** The last answer written in each worktree, by id, kept after its file went (each holds the memo of its state): a served log names the one it served. */
  private readonly recent = new Map<string, Written>();
  /** Worktree git dirs an answer was written to: where a served log may appear. */
  private readonly gitDirs = new Map<string, string>();
  private reading = false;
  /** A read was asked for while one ran: it runs again when that one ends. */
  private readAgain = false;
  /** The render in the background slot, if any. */
  private rendering: AbortController | undefined;
  private readonly pending = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private timerMs = 0;
  private tripwire: Tripwire | undefined;
  private servedUntil = 0;
  private stopped = false;
  private readonly counts = { rendered: 0, withdrawn: 0, served: 0, differed: 0 };

  constructor(private readonly options: ReadyAnswersOptions) {}

  /** `resident status`: answers written, withdrawn on a watcher event, commits the shell answered, and of those the ones whose recorded run printed otherwise. */
  get status() {
    return { ...this.counts };
  }

  /** A pre-commit asked (text, not strict): its environment and terminal are what its next one will have. */
  remember(toplevel: string, env: Readonly<Record<string, string>>, tty: Asker['tty']): void {
    this.askers.set(resolve(toplevel), { env, tty });
  }

  /**
   * Every watcher event (`changed`: its path), synchronously: nothing written before it may be served
   * after it — but the answer of a worktree whose index just became one of the keys it accepts: `git
   * commit` filling the cache-tree `git add` left incomplete, an instant before it runs pre-commit.
   */
  invalidate(changed?: string): void {
    this.rendering?.abort();
    if (this.written.size === 0) return;
    let withdrawn = 0;
    for (const [path, w] of this.written) {
      if (changed !== undefined && resolve(changed) === resolve(w.indexFile) && w.indexKeys.includes(shellIndexKey(indexChecksum(w.indexFile)) ?? '')) continue;
      rmSync(path, { force: true });
      this.written.delete(path);
      withdrawn += 1;
    }
    if (withdrawn === 0) return;
    this.counts.withdrawn += withdrawn;
    this.servedUntil = Date.now() + SERVED_GRACE_MS;
  }

  /** After a re-score: render each remembered worktree that has no answer out, one at a time in the background. */
  afterRescore(): void {
    for (const toplevel of this.askers.keys()) if (![...this.written.values()].some((w) => w.toplevel === toplevel)) this.pending.add(toplevel);
    void this.drain();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    this.timer = undefined;
    this.tripwire?.close();
    this.tripwire = undefined;
    for (const path of this.written.keys()) rmSync(path, { force: true });
    this.written.clear();
  }

  watching(): number {
    return 0;
  }

  private async drain(): Promise<void> {
    for (const toplevel of [...this.pending]) {
      if (this.stopped) return;
      this.pending.delete(toplevel);
      const asker = this.askers.get(toplevel);
      if (asker === undefined) continue;
      try {
        // The queue was busy (a question, another re-score): the next re-score renders it.
        if (!(await this.render(toplevel, asker))) return void this.pending.add(toplevel);
      } catch (error) {
        this.options.log(`ready answer for ${toplevel} not written: ${(error as Error)?.message ?? String(error)}`);
      }
    }
  }

  /** false when the background slot was taken; true when it ran, whether or not an answer could be written. */
  private async render(toplevel: string, asker: Asker): Promise<boolean> {
    const { warm, queue, commonDir, log } = this.options;
    const events = warm.events;
    // The worktree's own index: a `commit -a`'s index.lock is gone when its commit is.
    const env: Record<string, string> = { ...asker.env };
    delete env.GIT_INDEX_FILE;
    const colors = colorEnabled({ isTTY: asker.tty.err }, env);
    const rendered: { value: Rendered | null } = { value: null };
    // An event while rendering makes the render moot: it gives the slot back at once (invalidate()).
    const moot = new AbortController();
    this.rendering = moot;
    const done = await queue.runInBackground(async (slot) => {
      const signal = AbortSignal.any([slot, moot.signal]);
      try {
        if (!existsSync(toplevel)) return void this.askers.delete(toplevel);
        const repo = await resolveRepo(toplevel, { inheritRepoEnv: true });
        const index = shellIndexKey(indexChecksum(repo.indexFile));
        if (repo.head === null || index === null) return;
        const treed = shellIndexKey(await indexChecksumOnceTreed(repo.toplevel, repo.indexFile));
        // What no watcher sees, before and after: a change meanwhile is not in the answer.
        const state = stampStateFiles(commonDir);
        const unwatchedBefore = warm.vouchFor(repo.toplevel)?.unwatched();
        const at = Date.now();
        const first = await renderReadyPreCommit({ cwd: toplevel, colors, at, sensing: warm.sensing(env), signal });
        const vouch = warm.vouchFor(repo.toplevel);
        if (first === null || vouch === null) return;
        let until = 0;
        for (const window of WINDOWS_MS) {
          const end = Math.min(at + window, vouch.validUntil);
          if (end - at < WINDOWS_MS.at(-1)!) break;
          const later = await renderReadyPreCommit({ cwd: toplevel, colors, at: end, sensing: warm.sensing(env), signal });
          if (later !== null && later.comparable === first.comparable) {
            until = end;
            break;
          }
        }
        const unwatched = vouch.unwatched();
        const unmoved = shellIndexKey(indexChecksum(repo.indexFile)) === index && stampStateFiles(commonDir) === state;
        if (until === 0 || !unmoved || (unwatchedBefore !== undefined && unwatchedBefore !== unwatched)) return;
        const indexKeys = treed !== null ? [index, treed] : [index];
        rendered.value = {
          ...first,
          until,
          gitDir: repo.gitDir,
          head: repo.head,
          indexKeys,
          indexFile: repo.indexFile,
          vouch,
          key: `${unwatched}:${state}`,
        };
      } catch (error) {
        if (!signal.aborted) log(`ready answer for ${toplevel} not written: ${(error as Error)?.message ?? String(error)}`);
      }
    }, env);
    if (this.rendering === moot) this.rendering = undefined;
    if (!done && !moot.signal.aborted) return false;
    const r = rendered.value;
    if (r === null || this.stopped || moot.signal.aborted || warm.events !== events || r.vouch.generation !== events) return true;
    const frozen = warm.frozen(toplevel, env);
    if (frozen === null) return true;
    const path = join(r.gitDir, READY_FILE);
    const id = randomBytes(8).toString('hex');
    const text = readyFileText(
      {
        id,
        pid: process.pid,
        until: Math.floor(r.until / 1000),
        head: r.head,
        index: r.indexKeys.join(','),
        env: posixCksum(envKeyText(asker.env)),
        tty: `${asker.tty.out ? 1 : 0}${asker.tty.err ? 1 : 0}`,
      },
      r.parts,
    );
    if (text === null) return true;
    writeFileAtomicSync(path, text, { mode: 0o600 });
    const written: Written = {
      id,
      toplevel,
      gitDir: r.gitDir,
      parts: r.parts,
      comparable: r.comparable,
      key: r.key,
      keyNow: () => `${r.vouch.unwatched()}:${stampStateFiles(commonDir)}`,
      watchable: r.vouch.watchable,
      until: r.until,
      // The served commit's run, recorded: its history at the moment it was served, from the memo
      // of the state it judged, under the environment it was rendered with.
      record: (at) => renderReadyPreCommit({ cwd: toplevel, colors, at, sensing: frozen, record: true }),
      env,
      indexFile: r.indexFile,
      indexKeys: r.indexKeys,
    };
    this.written.set(path, written);
    // One per worktree: a served log names the answer of the state just before its commit.
    for (const [oldId, old] of this.recent) if (old.gitDir === r.gitDir) this.recent.delete(oldId);
    this.recent.set(id, written);
    this.gitDirs.set(r.gitDir, toplevel);
    this.counts.rendered += 1;
    this.keepHonest(written);
    return true;
  }

  /**
   * Keeps the files honest and reads the served logs, while there is anything to keep or read: on
   * every event in the folders of what `written` rests on, and on the backstop's beat. Armed before
   * its first look, which comes at once: a change since its key was taken is not missed.
   */
  private keepHonest(written: Written): void {
    this.tripwire ??= new Tripwire(() => this.look(), this.options.log);
    // In the git dir only the served log: its index and HEAD are the worktree watcher's. Our state
    // folders are added by every look, before it stamps them.
    this.tripwire.add(
      [...written.watchable.files, join(written.gitDir, SERVED_FILE)],
      [...written.watchable.folders, join(this.options.commonDir, 'worktrees')],
    );
    this.beat();
    this.look();
  }

  /** The poll: slow beside a whole watch, fast when a folder could not be watched. */
  private beat(): void {
    const beat = this.tripwire?.whole !== false ? (this.options.backstopMs ?? BACKSTOP_MS) : POLL_MS;
    if (this.timer !== undefined && this.timerMs === beat) return;
    clearInterval(this.timer);
    this.timerMs = beat;
    this.timer = setInterval(() => this.look(), beat);
    this.timer.unref();
  }

  private look(): void {
    if (this.timer === undefined) return;
    // A linked worktree added meanwhile: its state folder is watched before its files are stamped.
    this.tripwire?.add([], stateFolders(this.options.commonDir));
    this.beat();
    const now = Date.now();
    for (const [path, w] of this.written) {
      if (now < w.until && w.keyNow() === w.key) continue;
      rmSync(path, { force: true });
      this.written.delete(path);
      this.servedUntil = now + SERVED_GRACE_MS;
    }
    void this.readServed();
    if (this.written.size === 0 && now > this.servedUntil && !this.reading) {
      clearInterval(this.timer);
      this.timer = undefined;
      this.tripwire?.close();
      this.tripwire = undefined;
      // Each holds the memo of its state: nothing can name them any more.
      this.recent.clear();
    }
  }

  private async readServed(): Promise<void> {
    if (this.reading) {
      this.readAgain = true;
      return;
    }
    this.reading = true;
    try {
      for (const [gitDir, toplevel] of this.gitDirs) {
        const log = join(gitDir, SERVED_FILE);
        const taken = `${log}.${process.pid}`;
        try {
          renameSync(log, taken);
        } catch {
          continue;
        }
        const served = servedLines(readBounded(taken));
        rmSync(taken, { force: true });
        this.options.touch();
        for (const { at, id } of served) {
          const answer = this.recent.get(id);
          if (answer === undefined || answer.gitDir !== gitDir) continue;
          this.counts.served += 1;
          const again = await this.options.queue.run(answer.env, new AbortController(), () => answer.record(at)).catch(() => null);
          // The ages are the shell's (the same formula), the duration the rendered run's: the rest must be equal.
          if (again === null || again.comparable !== answer.comparable) {
            this.counts.differed += 1;
            this.options.log(`a commit in ${toplevel} answered by the shell: its recorded run printed otherwise`);
          }
        }
      }
    } finally {
      this.reading = false;
    }
    // A log appended while this one was being recorded is read now, not at the next event.
    if (this.readAgain && !this.stopped) {
      this.readAgain = false;
      await this.readServed();
    }
  }
}

/**
 * Our own state files that a pre-commit reads — the history, the clone's identity, the fetch stamps,
 * every worktree's intent — as one stamp: the common dir's `airspace/` and each linked worktree's.
 * Not the snapshot cache (what it holds is content-addressed) nor the inboxes (a hook shows none).
 */
function stampStateFiles(commonDir: string): string {
  const dirs = stateFolders(commonDir);
  // Files, not the folders: a cache written beside them moves a folder's times. A file that comes or goes changes the list.
  const files = dirs.flatMap((dir) => entries(dir).flatMap((entry) => (entry.isFile() && !NOT_READ_BY_A_HOOK.test(entry.name) ? [join(dir, entry.name)] : [])));
  return stampFiles(files);
}

/** Where our state files are: the common dir's `airspace/` and each linked worktree's. */
function stateFolders(commonDir: string): string[] {
  const linked = entries(join(commonDir, 'worktrees')).filter((entry) => entry.isDirectory());
  return [join(commonDir, STATE_FOLDER), ...linked.map((entry) => join(commonDir, 'worktrees', entry.name, STATE_FOLDER))];
}

/** What `dir` holds, by name; nothing when it is absent. */
function entries(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch {
    return [];
  }
}

const NOT_READ_BY_A_HOOK = /^(worktree-snapshots-v\d+\.json|inbox\.json)$|\.tmp$/;

function readBounded(path: string): string {
  try {
    return readFileSync(path).subarray(-MAX_SERVED_BYTES).toString('utf8');
  } catch {
    return '';
  }
}
