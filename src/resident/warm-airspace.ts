import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { configFiles } from '../git/config-files.js';
import { lastFetchAge, lastUserFetch } from '../git/fetch-traffic.js';
import { gitExecPath } from '../git/git-exec-path.js';
import { indexFingerprint } from '../git/index-fingerprint.js';
import type { Traffic, TrafficInput } from '../run/collect-traffic.js';
import type { GitChannels, GitChannelsInput } from '../run/compute-git-channels.js';
import type { GraphForRunOptions } from '../run/graph-for-run.js';
import { graphCachePath } from '../graph/graph-cache.js';
import type { LoadedGraph } from '../graph/types.js';
import type { Airspace } from '../traffic/collect-airspace.js';
import type { PeerBeaconInput, PeerBeacons } from '../run/gather-inputs.js';
import type { RunBudget, StageName, StageRecord } from '../run/run-budget.js';
import { liveSensing, type Sensing } from '../run/sensing.js';
import { openRepository } from '../run/open-repository.js';
import { OpenedRepositories } from './opened-repositories.js';
import { listStably, stampFiles } from './stamp-files.js';
import { coverageOfHooksDir, coverageOfResolvedHooksDir } from '../install/hook-coverage.js';
import type { PairWorkingSets } from '../traffic/collect-airspace.js';
import type { LineOfWork } from '../traffic/line-of-work.js';

/**
 * Answers from the warm airspace (docs/decisions/resident.md, "Answers from the warm airspace"):
 * the resident keeps, per worktree, what the stages that read git sensed in its last run there
 * (src/run/sensing.ts: the traffic, the peers' beacons folded into the pairs, the git channels),
 * and a later run of the same worktree takes them instead of reading git again when nothing they
 * read can have changed since that run began:
 * - no watcher event since it began (`generation`: every event chokidar reports in any worktree and
 *   in the git dir's HEAD, refs and the other worktrees' indexes);
 * - the asker's index says what that run's index said (src/git/index-fingerprint.ts): during
 *   `git commit` git rewrites the index or builds `index.lock` (`commit -a`), which no watcher
 *   event may be trusted to order before the hook's question, so the index is compared, not watched;
 * - the same HEAD, the same configuration, remote and channels, and the same environment as far as
 *   git and the pipeline read it (`environmentKey`);
 * - the clock has not crossed a time those stages decided by: a remote branch older than
 *   `peers.maxAgeDays`, a beacon past its TTL (`validUntil`).
 * Everything that depends on the clock or on the state the runs themselves write — the graph cache,
 * the risk history, the intents, recency decay, the "traffic as of" ages, the scores, the report,
 * the inbox — is computed by the run as the one-shot path does. Only the hooks' and `check`'s own
 * judgement of a worktree is memoized (no fetch, no pushed ref, not `scan`); anything else, and any
 * doubt, senses live.
 */

/** The stages one run sensed, and what it read them from. */
interface Memo {
  readonly inputs: string;
  /** git's configuration and ignore files, and what they were when the run began (`stampFiles`). */
  readonly configFiles: readonly string[];
  readonly stamps: string;
  readonly index: string;
  readonly head: string | null;
  readonly generation: number;
  readonly indexEvents: ReadonlyMap<string, number>;
  readonly validUntil: number;
  readonly traffic: Traffic;
  readonly trafficStages: readonly StageRecord[];
  readonly peers: PeerBeacons;
  readonly peerStages: readonly StageRecord[];
  /** The graph as read from its cache, fresh for the ownship's tree, and the cache file's stamp then; absent: read it live. */
  readonly graph?: { readonly loaded: LoadedGraph; readonly stamp: string };
  readonly pairsIn: readonly PairWorkingSets[];
  readonly merged: GitChannelsInput['pairs'];
  readonly channels: GitChannels;
  readonly channelStages: readonly StageRecord[];
}

/** The watcher's counts when a run began. */
interface Mark {
  readonly generation: number;
  readonly indexEvents: ReadonlyMap<string, number>;
}

/** What a run reads before its first stage, to compare with a memo or to record one. */
interface Sensed {
  readonly toplevel: string;
  /** The worktree's own index file (its events are not counted: the index is compared by content). */
  readonly ownIndex: string;
  /** The index this run reads (a hook's GIT_INDEX_FILE: git's `index.lock` during `git commit -a`). */
  readonly indexFile: string;
  readonly inputs: string;
  readonly index: string;
  readonly head: string | null;
}

export class WarmAirspace {
  private generation = 0;
  /** Events per index file: a worktree's own index is compared by content, the others' are events. */
  private readonly indexEvents = new Map<string, number>();
  private watched: () => readonly string[] = () => [];
  private healthy = false;
  private readonly memos = new Map<string, Memo>();
  private warmAnswers = 0;
  /** @internal of WarmRun: the openings (rev-parse and configuration) that may answer again. */
  readonly openings = new OpenedRepositories();

  constructor(private readonly commonDir: string) {}

  /** The list of git's configuration files per worktree and inputs, with their stamps when it was asked. */
  private readonly configLists = new Map<string, { readonly files: readonly string[]; readonly stamps: string }>();

  /** A watcher is ready and healthy: memos may be kept and answered from. */
  get vouches(): boolean {
    return this.healthy;
  }

  /**
   * git's configuration files for a worktree (src/git/config-files.ts), asked of git again only when
   * one of the files it listed last time changed: the list is what those files say (includes, the
   * excludes file), under the same environment (part of the inputs). A new list is kept only when
   * git, asked again after the files were stamped, names the same files and they did not move: then
   * the list is what the stamped contents say.
   */
  async configFilesOf(sensed: Sensed, ask: () => Promise<string[]>): Promise<readonly string[]> {
    const key = `${sensed.toplevel}\0${sensed.inputs}`;
    const known = this.configLists.get(key);
    if (known !== undefined && stampFiles(known.files) === known.stamps) return known.files;
    const listed = await listStably(ask);
    if (listed.stable) this.configLists.set(key, { files: listed.files, stamps: listed.stamps });
    else this.configLists.delete(key);
    return listed.files;
  }

  /** Runs answered without reading git in stages 1–3 (`resident status`'s servedWarm). */
  get servedWarm(): number {
    return this.warmAnswers;
  }

  /** The watcher is ready; `worktrees` says which worktrees it watches now (a new one only once chokidar does). */
  watching(worktrees: () => readonly string[]): void {
    this.watched = worktrees;
    this.healthy = true;
  }

  /** The watcher failed or stopped: it can no longer vouch for anything. */
  blind(): void {
    this.healthy = false;
    this.memos.clear();
  }

  /** Called synchronously on every watcher event. */
  changed(path: string): void {
    if (this.isIndexFile(path)) this.indexEvents.set(path, (this.indexEvents.get(path) ?? 0) + 1);
    else this.generation += 1;
  }

  /** How one run senses: live, recording what it sensed, or from the memo. Created per run, under the asker's environment. */
  sensing(env: NodeJS.ProcessEnv = process.env): Sensing {
    return new WarmRun(this, { ...env });
  }

  /**
   * What the shell's ready answers rest on besides the events and what the shell checks itself
   * (src/app/ready-answers.ts): the moment the memo of `toplevel` expires, and a key of what this
   * memo compares at every answer but no watcher sees — git's configuration and ignore files, the
   * graph cache, and whether each worktree's hook runs us — and `watchable`, the files and folders
   * that key reads (all but where the coverage finds the CLI: PATH, node_modules). null: no memo to
   * vouch for.
   */
  vouchFor(toplevel: string): {
    readonly generation: number;
    readonly validUntil: number;
    readonly unwatched: () => string;
    readonly watchable: { readonly files: readonly string[]; readonly folders: readonly string[] };
  } | null {
    const memo = this.currentMemo(toplevel);
    if (memo === null) return null;
    const { airspace } = memo.traffic;
    // The environment of this moment, kept: a later call may come while a question has swapped in its asker's.
    const env = { ...process.env };
    const unwatched = () => {
      const lines = [...(memo.traffic.ownship ? [memo.traffic.ownship] : []), ...airspace.traffic];
      const coverage = lines.map((line) =>
        line.kind === 'worktree' ? (protectedAgain(line, line.worktreePath ?? airspace.toplevel, airspace.commonDir, null, env).protection ?? null) : null,
      );
      return `${stampFiles(memo.configFiles)}:${stampFiles([graphCachePath(airspace.commonDir)])}:${JSON.stringify(coverage)}`;
    };
    const hooksDirs = [...(memo.traffic.ownship ? [memo.traffic.ownship] : []), ...airspace.traffic].flatMap((line) =>
      line.kind === 'worktree' && line.protection !== undefined ? [line.protection.hooksDir] : [],
    );
    // husky 9 runs `.husky/_/pre-push`, which runs `.husky/pre-push` one folder up (src/install/hook-coverage.ts).
    const folders = [...new Set(hooksDirs.flatMap((dir) => (basename(dir) === '_' ? [dir, dirname(dir)] : [dir])))];
    return {
      generation: memo.generation,
      validUntil: memo.validUntil,
      unwatched,
      watchable: { files: [...memo.configFiles, graphCachePath(airspace.commonDir)], folders },
    };
  }

  /**
   * A sensing that answers stages 1–3 from the memo of `toplevel` as it is now, whatever moves later:
   * for the run of a commit the shell already answered, recorded after git has moved on
   * (src/app/ready-answers.ts). null when there is no memo that vouches for now.
   */
  frozen(toplevel: string, env: NodeJS.ProcessEnv): Sensing | null {
    const memo = this.currentMemo(toplevel);
    return memo === null ? null : new WarmRun(this, { ...env }, memo);
  }

  /** The memo of `toplevel` when no event came since its run began and the watcher is healthy. */
  private currentMemo(toplevel: string): Memo | null {
    const memo = this.memos.get(resolve(toplevel));
    return this.healthy && memo !== undefined && memo.generation === this.generation ? memo : null;
  }

  /** The watcher's event count now (an event in any worktree or in the git dir's HEAD and refs). */
  get events(): number {
    return this.generation;
  }

  /** @internal of WarmRun */
  lookUp(sensed: Sensed, now: number): Memo | null {
    const memo = this.memos.get(sensed.toplevel);
    if (!this.healthy || memo === undefined) return null;
    const same =
      memo.inputs === sensed.inputs &&
      stampFiles(memo.configFiles) === memo.stamps &&
      memo.index === sensed.index &&
      memo.head === sensed.head &&
      memo.generation === this.generation &&
      this.sameOtherIndexes(memo.indexEvents, sensed.ownIndex) &&
      now < memo.validUntil;
    return same ? memo : null;
  }

  /** @internal of WarmRun: the state a run starts from, taken before it reads anything. */
  mark(): Mark {
    return { generation: this.generation, indexEvents: new Map(this.indexEvents) };
  }

  /** @internal of WarmRun: keeps `memo` when nothing moved while it was sensed. */
  store(toplevel: string, memo: Memo, ownIndex: string): boolean {
    const worktrees = [
      memo.traffic.airspace.toplevel,
      ...memo.traffic.airspace.traffic.flatMap((line) => (line.kind === 'worktree' && line.worktreePath ? [line.worktreePath] : [])),
    ];
    const watched = new Set(this.watched().map((w) => resolve(w)));
    const allWatched = worktrees.every((w) => watched.has(resolve(w)));
    if (!this.healthy || !allWatched || memo.generation !== this.generation || !this.sameOtherIndexes(memo.indexEvents, ownIndex)) {
      this.memos.delete(toplevel);
      return false;
    }
    this.memos.set(toplevel, memo);
    return true;
  }

  /** @internal of WarmRun */
  answeredWarm(): void {
    this.warmAnswers += 1;
  }

  private sameOtherIndexes(seen: ReadonlyMap<string, number>, ownIndex: string): boolean {
    for (const [path, count] of this.indexEvents) if (path !== ownIndex && (seen.get(path) ?? 0) !== count) return false;
    return true;
  }

  /** The main worktree's `index` or a linked one's `worktrees/<name>/index`. */
  private isIndexFile(path: string): boolean {
    const parts = relative(this.commonDir, path).split(sep);
    return (parts.length === 1 && parts[0] === 'index') || (parts.length === 3 && parts[0] === 'worktrees' && parts[2] === 'index');
  }
}

type Mode =
  | { readonly kind: 'live' }
  | { readonly kind: 'warm'; readonly memo: Memo }
  | { readonly kind: 'record'; readonly sensed: Sensed; draft: Partial<Memo> };

/** One run's sensing: decided at its first stage, for all three. */
class WarmRun implements Sensing {
  private mode: Mode = { kind: 'live' };
  /** Taken when the run is created, before it reads anything: an event from then on keeps it from being stored. */
  private readonly mark: Mark;

  constructor(
    private readonly warm: WarmAirspace,
    private readonly env: NodeJS.ProcessEnv,
    /** Answer from this memo whatever moved since: the run of a state that is already gone (`WarmAirspace.frozen`). */
    private readonly fixed?: Memo,
  ) {
    this.mark = warm.mark();
  }

  /** The opening answered from an earlier run's while the files it read stamp the same (src/resident/opened-repositories.ts). */
  readonly openRepository: Sensing['openRepository'] = (cwd, options = {}) =>
    this.warm.openings.open(
      cwd,
      options,
      this.env,
      () => openRepository(cwd, options),
      (repo) => configFiles(repo.toplevel, repo.gitDir, repo.commonDir, this.env, options.inheritRepoEnv === true),
    );

  readonly collectTraffic = async (input: TrafficInput): Promise<Traffic> => {
    if (this.fixed !== undefined) {
      this.mode = { kind: 'warm', memo: this.fixed };
      return trafficFromMemo(this.fixed, input);
    }
    const { request, plan, repo } = input;
    const judgedHere = (request.kind === 'pre-commit' || request.kind === 'check') && input.target === null && plan.pairs === 'ownship' && !plan.fetch;
    // Without a watcher there is nothing to vouch for a memo: sense live and read nothing more.
    if (!judgedHere || !this.warm.vouches) return liveSensing.collectTraffic(input);
    const ownIndex = resolve(repo.gitDir, 'index');
    const sensed: Sensed = {
      toplevel: resolve(repo.toplevel),
      ownIndex,
      indexFile: repo.indexFile,
      inputs: await inputsKey(input, this.env),
      index: await indexFingerprint(repo.toplevel, repo.indexFile),
      head: repo.head,
    };
    const memo = this.warm.lookUp(sensed, input.now);
    if (memo !== null) {
      this.mode = { kind: 'warm', memo };
      this.warm.answeredWarm();
      return trafficFromMemo(memo, input);
    }
    const files = await this.warm.configFilesOf(sensed, () => configFiles(repo.toplevel, repo.gitDir, repo.commonDir, this.env, input.plan.inheritRepoEnv));
    const worktreeFiles = [...files, ...worktreeConfigs(repo.commonDir)];
    this.mode = { kind: 'record', sensed, draft: { configFiles: worktreeFiles, stamps: stampFiles(worktreeFiles) } };
    const before = input.budget.log.length;
    const traffic = await liveSensing.collectTraffic(input);
    this.draft({ traffic, trafficStages: stagesSince(input.budget, before, 'traffic') });
    return traffic;
  };

  readonly readPeerBeacons = async (input: PeerBeaconInput): Promise<PeerBeacons> => {
    const mode = this.mode;
    if (mode.kind === 'warm') return replay(input.budget, 'beacons', mode.memo.peers, mode.memo.peerStages);
    const before = input.budget.log.length;
    const peers = await liveSensing.readPeerBeacons(input);
    // A beacon's validity is the clock's: the memo lasts until the first one expires, and a run that
    // skipped one (expired, from the future, malformed) is not kept.
    if (mode.kind === 'record' && peers.read.skipped.length === 0) {
      const expires = Math.min(Infinity, ...peers.read.beacons.map((beacon) => beacon.updatedAt + input.config.beacons.ttlMs));
      this.draft({
        peers,
        peerStages: stagesSince(input.budget, before, 'beacons'),
        validUntil: Math.min(expires, input.traffic.airspace.agesOutAt ?? -Infinity),
      });
    } else this.mode = { kind: 'live' };
    return peers;
  };

  /**
   * The graph comes from its cache file (written by builds, not watched) checked against the
   * ownship's tree (memoized with the traffic): the same file and the same tree give the same graph.
   * Kept only as a plain cache read — not stale, no background build asked for — which every
   * refresh mode answers alike.
   */
  readonly graphForRun = async (airspace: Airspace, options: GraphForRunOptions): Promise<LoadedGraph> => {
    const mode = this.mode;
    const cache = [graphCachePath(airspace.commonDir)];
    if (mode.kind === 'warm' && mode.memo.graph !== undefined && stampFiles(cache) === mode.memo.graph.stamp) return mode.memo.graph.loaded;
    const before = stampFiles(cache);
    const loaded = await liveSensing.graphForRun(airspace, options);
    const plain = loaded.source === 'cache' && !loaded.stale && loaded.background === undefined;
    if (this.mode.kind === 'record' && plain && stampFiles(cache) === before) this.draft({ graph: { loaded, stamp: before } });
    return loaded;
  };

  readonly computeGitChannels = async (input: GitChannelsInput): Promise<GitChannels> => {
    const mode = this.mode;
    if (mode.kind === 'warm') {
      const { memo } = mode;
      // The same pairs the memo's channels were computed on (stage 2b passes a worktree's pairs through).
      if (input.pairs.length === memo.pairsIn.length && input.pairs.every((pair, i) => pair === memo.pairsIn[i])) {
        // The scorer is prepared now: the clock, the risk history and the intents are this run's.
        return replay(input.budget, 'channels', { ...memo.channels, prepared: input.prepare(memo.merged) }, memo.channelStages);
      }
      throw new Error('warm airspace: stage 2b changed the pairs of a memoized run');
    }
    const before = input.budget.log.length;
    let merged: GitChannelsInput['pairs'] = [];
    const channels = await liveSensing.computeGitChannels({
      ...input,
      prepare: (pairs) => {
        merged = pairs;
        return input.prepare(pairs);
      },
    });
    if (mode.kind === 'record') {
      const { sensed } = mode;
      // The index read again: a `git add` during the run would otherwise be stored under the old one.
      const indexAfter = await indexFingerprint(sensed.toplevel, sensed.indexFile);
      const draft = mode.draft;
      const unmoved = draft.configFiles !== undefined && stampFiles(draft.configFiles) === draft.stamps;
      if (indexAfter === sensed.index && unmoved && draft.traffic && draft.peers && draft.validUntil !== undefined) {
        this.warm.store(
          sensed.toplevel,
          {
            inputs: sensed.inputs,
            configFiles: draft.configFiles ?? [],
            stamps: draft.stamps ?? '',
            index: sensed.index,
            head: sensed.head,
            generation: this.mark.generation,
            indexEvents: this.mark.indexEvents,
            validUntil: draft.validUntil,
            traffic: draft.traffic,
            trafficStages: draft.trafficStages ?? [],
            peers: draft.peers,
            peerStages: draft.peerStages ?? [],
            ...(draft.graph ? { graph: draft.graph } : {}),
            pairsIn: input.pairs,
            merged,
            channels,
            channelStages: stagesSince(input.budget, before, 'channels'),
          },
          sensed.ownIndex,
        );
      }
    }
    return channels;
  };

  private draft(part: Partial<Memo>): void {
    if (this.mode.kind === 'record') this.mode.draft = { ...this.mode.draft, ...part };
  }
}

/** Stage 1 answered from a memo: what it sensed, with the clock's parts and the hook coverage read again at `now`. */
async function trafficFromMemo(memo: Memo, input: TrafficInput): Promise<Traffic> {
  const { repo } = input;
  const { airspace } = memo.traffic;
  // The clock's parts of the traffic, as collectAirspace computes them at `now`.
  const [fetch, userFetch] = await Promise.all([lastFetchAge(airspace.commonDir, input.now), lastUserFetch(airspace.gitDir, airspace.commonDir, input.now)]);
  // Whether each worktree's hook runs us reads files no watcher sees (node_modules/.bin, PATH's
  // directories): looked at again, as discovery does, with the hooks dir this run's rev-parse found.
  const ownship = memo.traffic.ownship && protectedAgain(memo.traffic.ownship, airspace.toplevel, airspace.commonDir, repo.hooksDir);
  const lines = airspace.traffic.map((line) => (line.worktreePath === undefined ? line : protectedAgain(line, line.worktreePath, airspace.commonDir, null)));
  const traffic: Traffic = {
    ...memo.traffic,
    ownship: memo.traffic.ownship === null ? null : (ownship ?? null),
    airspace: {
      ...airspace,
      ownship: airspace.ownship === null ? null : (ownship ?? null),
      traffic: lines,
      scanned: { ...airspace.scanned, at: input.now, fetch, userFetch },
    },
  };
  return replay(input.budget, 'traffic', traffic, memo.trafficStages);
}

/** A worktree's hook coverage as discovery computes it (src/traffic/discover-traffic.ts, discover-worktrees.ts), now. */
function protectedAgain(line: LineOfWork, worktree: string, commonDir: string, ownHooksDir: string | null, env: NodeJS.ProcessEnv = process.env): LineOfWork {
  if (line.kind !== 'worktree' || line.protection === undefined) return line;
  const protection =
    ownHooksDir !== null
      ? coverageOfResolvedHooksDir(worktree, commonDir, ownHooksDir)
      : coverageOfHooksDir(worktree, commonDir, line.protection.hooksPath ?? null, env);
  return { ...line, protection };
}

/** Each linked worktree's own configuration (`extensions.worktreeConfig`), present or not. */
function worktreeConfigs(commonDir: string): string[] {
  try {
    return readdirSync(join(commonDir, 'worktrees')).map((name) => join(commonDir, 'worktrees', name, 'config.worktree'));
  } catch {
    return [];
  }
}

/** A stage answered from the memo, through the budget as a live one (its deadline check, its log line as the memo's run wrote it). */
async function replay<T>(budget: RunBudget, stage: StageName, value: T, records: readonly StageRecord[]): Promise<T> {
  const record = records.find((r) => r.stage === stage);
  return budget.stage(
    stage,
    async () => value,
    () => (record ? { state: record.state, ...(record.detail !== undefined ? { detail: record.detail } : {}) } : undefined),
  );
}

function stagesSince(budget: RunBudget, before: number, stage: StageName): StageRecord[] {
  return budget.log.slice(before).filter((record) => record.stage === stage);
}

/**
 * Variables that never change what stages 1–3 read: git's per-command identity and editor (the
 * snapshot commit sets its own identity and date, src/git/snapshot-worktree.ts), the index (compared
 * by content), the prefix (no pathspec of ours is relative), what exec-git.ts pins for every call,
 * and our own budget and resident switches.
 */
const NOT_READ =
  /^(GIT_(INDEX_FILE|PREFIX|EDITOR|REFLOG_ACTION|AUTHOR_\w+|COMMITTER_\w+|OPTIONAL_LOCKS|TERMINAL_PROMPT|PAGER|EXTERNAL_DIFF)|AIRSPACE_(HOOKS_BUDGET_MS|RESIDENT))$/;
/** Variables git exports to hooks that select a repository: read only when the run inherits them (exec-git.ts REPO_ENV). */
const REPO_SELECTING = /^GIT_(DIR|WORK_TREE|COMMON_DIR|OBJECT_DIRECTORY|ALTERNATE_OBJECT_DIRECTORIES|NAMESPACE)$/;

/**
 * Everything besides the repository's files that decides what stages 1–3 sense, as one digest:
 * the configuration, the remote and channels the run uses, and the environment git and the
 * pipeline read — every GIT_* and AIRSPACE_* variable but those above, HOME and XDG_CONFIG_HOME
 * (git's global config), TZ, and PATH (which git runs; whether a worktree's hook finds the CLI,
 * src/install/find-cli.ts). A hook's PATH starts with git's exec dir, which git prepends for its
 * hooks: that entry is dropped when it is the exec dir of the git on PATH, and GIT_EXEC_PATH is
 * dropped when it names that same dir, so a hook and the background run agree.
 */
async function inputsKey(input: TrafficInput, env: NodeJS.ProcessEnv): Promise<string> {
  const execPath = await gitExecPath();
  const cwd = resolve(input.request.cwd);
  const atTop = cwd === resolve(input.repo.toplevel);
  const read: [string, string][] = [];
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || NOT_READ.test(name)) continue;
    if (REPO_SELECTING.test(name) && !input.plan.inheritRepoEnv) continue;
    // git exports GIT_DIR (and may export GIT_WORK_TREE) to a linked worktree's hooks: naming the
    // git dir and top level this run found from its cwd anyway, they select nothing else.
    if (name === 'GIT_DIR' && atTop && resolve(cwd, value) === resolve(input.repo.gitDir)) continue;
    if (name === 'GIT_WORK_TREE' && atTop && resolve(cwd, value) === resolve(input.repo.toplevel)) continue;
    if (name === 'GIT_EXEC_PATH' && resolve(value) === execPath) continue;
    if (name.startsWith('GIT_') || name.startsWith('AIRSPACE_') || name === 'HOME' || name === 'XDG_CONFIG_HOME' || name === 'TZ') read.push([name, value]);
  }
  const path = (env.PATH ?? '').split(':');
  if (path.length > 1 && resolve(path[0]!) === execPath) path.shift();
  read.push(['PATH', path.join(':')]);
  read.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const key = {
    env: read,
    config: input.config,
    remote: input.remote,
    channels: input.plan.channels,
    cwd,
    gitDir: input.repo.gitDir,
    branch: input.repo.branch,
  };
  return createHash('sha256').update(JSON.stringify(key)).digest('hex');
}
