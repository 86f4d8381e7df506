import { chmodSync, existsSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { dirname, join } from 'node:path';
import { writeFileAtomicSync } from '../fs/atomic-write.js';
import { tryLock, unlock } from '../fs/lock-file.js';
import { readResidentInfo } from './ask-resident.js';
import { packageIdentity } from './resident-identity.js';
import { ensurePrivateDir, residentPaths, type ResidentPaths } from './resident-paths.js';
import {
  onLines,
  RESIDENT_PROTOCOL,
  writeLine,
  type ResidentEnvelope,
  type ResidentInfo,
  type ResidentRequest,
  type ResidentStatus,
} from './resident-protocol.js';
import { parseEnvelope } from './resident-request-schema.js';
import { RunQueue } from './run-queue.js';
import { Subscribers } from './resident-subscribers.js';

/**
 * The resident process (docs/decisions/resident.md): one per repository, shared by its worktrees.
 * It answers the hooks', `check`'s and the edit check's questions by running the same pipeline
 * as the one-shot path in-process — the handlers are the door's own functions — so the only
 * difference is what is already warm. It exits when idle, when the repository is gone, when a
 * different build of the package is installed under it, on `resident stop` and on SIGTERM/SIGINT/
 * SIGHUP; on exit it aborts what runs (which kills the git processes) and removes its socket, info
 * file and lock. After a `kill -9` those stay behind: the socket refuses connections (the client
 * falls back at once) and the lock's pid is gone (the next resident takes it over).
 */
export type RunRequestOf<T extends ResidentRequest['type']> = Extract<ResidentRequest, { type: T }>;

/** What the door hands the resident: the one-shot path's own functions. */
export interface ResidentHandlers {
  readonly hook: (request: RunRequestOf<'hook'>, signal: AbortSignal) => Promise<unknown>;
  readonly check: (request: RunRequestOf<'check'>, signal: AbortSignal) => Promise<unknown>;
  readonly edit: (request: RunRequestOf<'edit'>, signal: AbortSignal) => Promise<unknown>;
  readonly intentClear: (request: RunRequestOf<'intent-clear'>) => Promise<unknown>;
  /** Questions answered from the warm airspace (src/resident/warm-airspace.ts), for status. */
  readonly servedWarm?: () => number;
  readonly ready?: () => ResidentStatus['ready'];
}

export interface ResidentSettings {
  readonly commonDir: string;
  readonly idleMs: number;
  /** The identity it started with (src/resident/resident-identity.ts). */
  readonly identity: string;
  readonly log: (line: string) => void;
}

/** Something the resident runs beside the questions (the watcher); stopped on exit. */
export interface ResidentCompanion {
  readonly stop: () => Promise<void>;
  readonly watching: () => number;
}

const HOUSEKEEPING_MS = 2_000;
/** Questions waiting behind the one that runs; one more is refused as busy (the asker runs it itself). */
const MAX_WAITING = 3;

export class Resident {
  readonly paths: ResidentPaths;
  readonly queue = new RunQueue();
  readonly subscribers = new Subscribers();
  private server: Server | null = null;
  private lockToken: string | undefined;
  private lastActivity = Date.now();
  private readonly startedAt = Date.now();
  private served = 0;
  private housekeeping: NodeJS.Timeout | undefined;
  private readonly sockets = new Set<Socket>();
  private companions: ResidentCompanion[] = [];
  private exiting: Promise<void> | null = null;
  private resolveDone: (() => void) | undefined;
  readonly done: Promise<void>;

  constructor(
    private readonly settings: ResidentSettings,
    private readonly handlers: ResidentHandlers,
  ) {
    this.paths = residentPaths(settings.commonDir);
    this.done = new Promise((resolve) => {
      this.resolveDone = resolve;
    });
  }

  /** Takes the lock and listens; false when another resident holds the lock (this one is not needed). */
  async start(): Promise<boolean> {
    ensurePrivateDir(this.paths.dir);
    ensurePrivateDir(dirname(this.paths.socket));
    this.lockToken = tryLock(this.paths.lock, Date.now(), Number.MAX_SAFE_INTEGER);
    if (this.lockToken === undefined) return false;
    // We hold the lock: a socket left here is a dead resident's.
    rmSync(this.paths.socket, { force: true });
    const server = createServer((socket) => this.accept(socket));
    this.server = server;
    // The socket is created with the umask's mode: no moment where another user could connect.
    const umask = process.umask(0o077);
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(this.paths.socket, () => resolve());
      });
    } finally {
      process.umask(umask);
    }
    chmodSync(this.paths.socket, 0o600);
    const info: ResidentInfo = {
      protocol: RESIDENT_PROTOCOL,
      identity: this.settings.identity,
      pid: process.pid,
      socket: this.paths.socket,
      commonDir: this.settings.commonDir,
      startedAt: this.startedAt,
    };
    writeFileAtomicSync(this.paths.info, `${JSON.stringify(info)}\n`, { mode: 0o600 });
    this.housekeeping = setInterval(() => this.keepHouse(), HOUSEKEEPING_MS);
    for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.once(signal, () => void this.exit(`signal ${signal}`));
    this.settings.log(`serving ${this.settings.commonDir} on ${this.paths.socket} (pid ${process.pid}, ${this.settings.identity})`);
    return true;
  }

  /** Starts `companion` beside the questions; it is stopped when the resident exits. */
  add(companion: ResidentCompanion): void {
    this.companions.push(companion);
  }

  /** Counts as activity: questions and (for the watcher) nothing else keep it alive. */
  touch(): void {
    this.lastActivity = Date.now();
  }

  status(): ResidentStatus {
    return {
      pid: process.pid,
      identity: this.settings.identity,
      socket: this.paths.socket,
      commonDir: this.settings.commonDir,
      startedAt: this.startedAt,
      uptimeMs: Date.now() - this.startedAt,
      served: this.served,
      servedWarm: this.handlers.servedWarm?.() ?? 0,
      ready: this.handlers.ready?.() ?? { rendered: 0, withdrawn: 0, served: 0, differed: 0 },
      busy: this.queue.busy,
      rssBytes: process.memoryUsage.rss(),
      watching: this.companions.reduce((n, c) => n + c.watching(), 0),
      subscribers: this.subscribers.size,
    };
  }

  exit(reason: string): Promise<void> {
    if (this.exiting) return this.exiting;
    this.exiting = (async () => {
      this.settings.log(`exiting: ${reason}`);
      clearInterval(this.housekeeping);
      this.server?.close();
      for (const socket of this.sockets) socket.destroy();
      this.queue.abortAll();
      await Promise.allSettled(this.companions.map((c) => c.stop()));
      await this.queue.idle(2_000);
      // Only what is ours: a newer resident may already have replaced the info file and socket.
      if (readResidentInfo(this.settings.commonDir)?.pid === process.pid) {
        rmSync(this.paths.info, { force: true });
        rmSync(this.paths.socket, { force: true });
      }
      if (this.lockToken !== undefined) unlock(this.paths.lock, this.lockToken);
      this.resolveDone?.();
    })();
    return this.exiting;
  }

  private keepHouse(): void {
    if (!existsSync(join(this.settings.commonDir, 'HEAD'))) return void this.exit('the repository is gone');
    if (packageIdentity() !== this.settings.identity) return void this.exit('another build of airspace-hooks was installed');
    if (readResidentInfo(this.settings.commonDir)?.pid !== process.pid || !existsSync(this.paths.socket)) return void this.exit('replaced');
    // An open subscription is an agent at work (a `watch`, an MCP session): not idle.
    if (!this.queue.busy && this.subscribers.size === 0 && Date.now() - this.lastActivity > this.settings.idleMs) return void this.exit('idle');
  }

  private accept(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => {
      this.sockets.delete(socket);
      // A subscription that ends starts the idle time afresh.
      this.touch();
    });
    socket.on('error', () => socket.destroy());
    let first = true;
    onLines(socket, (line) => {
      if (!first) return;
      first = false;
      void this.answer(socket, line);
    });
  }

  private async answer(socket: Socket, line: string): Promise<void> {
    let envelope: ResidentEnvelope;
    try {
      envelope = parseEnvelope(JSON.parse(line));
    } catch {
      writeLine(socket, { type: 'refused', reason: 'bad request' });
      return void socket.end();
    }
    if (envelope.protocol !== RESIDENT_PROTOCOL || envelope.identity !== this.settings.identity) {
      writeLine(socket, { type: 'refused', reason: 'another build' });
      return void socket.end();
    }
    const request = envelope.request;
    this.touch();
    if (request.type === 'status' || request.type === 'stop') {
      writeLine(socket, { type: 'accepted' });
      writeLine(socket, { type: 'answer', answer: this.status() });
      socket.end();
      if (request.type === 'stop') await this.exit('asked to stop');
      return;
    }
    if (request.type === 'subscribe') {
      const refused = this.subscribers.add(socket, request.cwd);
      if (refused !== null) writeLine(socket, { type: 'refused', reason: refused });
      return void (refused !== null && socket.end());
    }
    if (this.queue.waiting >= MAX_WAITING) {
      writeLine(socket, { type: 'refused', reason: 'busy' });
      return void socket.end();
    }
    writeLine(socket, { type: 'accepted' });
    const controller = new AbortController();
    // The asker gone (Ctrl-C on `check`, a killed hook): its run stops and kills its git processes.
    socket.on('close', () => controller.abort());
    try {
      const answer = await this.queue.run(request.env, controller, () => this.dispatch(request, controller.signal));
      this.served += 1;
      if (!socket.destroyed) writeLine(socket, { type: 'answer', answer });
    } catch (error) {
      this.settings.log(`${request.type} failed: ${(error as Error)?.stack ?? String(error)}`);
      if (!socket.destroyed) writeLine(socket, { type: 'failed', message: (error as Error)?.message ?? String(error) });
    } finally {
      this.touch();
      socket.end();
    }
  }

  private dispatch(request: Exclude<ResidentRequest, { type: 'status' | 'stop' | 'subscribe' }>, signal: AbortSignal): Promise<unknown> {
    switch (request.type) {
      case 'hook':
        return this.handlers.hook(request, signal);
      case 'check':
        return this.handlers.check(request, signal);
      case 'edit':
        return this.handlers.edit(request, signal);
      case 'intent-clear':
        return this.handlers.intentClear(request);
    }
  }
}
