import { connect } from 'node:net';
import { isOwnSocket, readResidentInfo } from './ask-resident.js';
import { packageIdentity } from './resident-identity.js';
import { onLines, RESIDENT_PROTOCOL, writeLine, type ResidentReply } from './resident-protocol.js';
import type { AirspaceEvent } from './airspace-event.js';

/**
 * The client side of a subscription (src/resident/resident-subscribers.ts), for `watch` and the
 * MCP server: subscribes to the repository's resident for one worktree and hands on its events,
 * and follows the resident across its lives. When the connection ends (idle exit, `resident stop`,
 * another build installed, `kill -9`) it re-reads resident.json and connects again, backing off;
 * a resident that is absent or dead is started, as the one-shot fallback starts one. It gives up —
 * 'unavailable', the caller then watches by itself — when the resident refuses for good (it does
 * not watch, the directory is no worktree of it) or none answers after MAX_FAILURES attempts in a
 * row (about 25 s: a start on a large repository under load takes seconds).
 */
export interface FollowOptions {
  readonly commonDir: string;
  readonly cwd: string;
  readonly signal: AbortSignal;
  /** Starts a resident in the background (src/resident/start-resident.ts). */
  readonly start: () => Promise<void>;
  readonly onConnected: (pid: number) => void;
  readonly onEvent: (event: AirspaceEvent) => void;
  /** A connection that was accepted ended: reconnecting. */
  readonly onLost: () => void;
}

const MAX_FAILURES = 15;
const RESTART_AFTER_MS = 3_000;
/** From connect to `accepted`: a subscription waits for no run, but the resident may be in a synchronous stretch of one. */
const ACCEPT_TIMEOUT_MS = 3_000;
/** Refusals worth waiting out: the watcher is not ready yet, or a resident of another build is about to exit. */
const PASSING = new Set(['starting', 'another build', 'busy']);

type Attempt = { readonly kind: 'ended' } | { readonly kind: 'retry'; readonly start: boolean } | { readonly kind: 'never' };

export async function followResident(options: FollowOptions): Promise<'stopped' | 'unavailable'> {
  let failures = 0;
  let startedAt = Number.NEGATIVE_INFINITY;
  while (!options.signal.aborted) {
    const attempt = await subscribeOnce(options);
    if (options.signal.aborted) break;
    if (attempt.kind === 'never') return 'unavailable';
    if (attempt.kind === 'ended') {
      failures = 0;
      options.onLost();
    } else {
      failures += 1;
      if (failures > MAX_FAILURES) return 'unavailable';
      // The one started needs its seconds to listen; a start may also have found the old one
      // still holding the lock while it exits (and started nothing): try again a little later.
      if (attempt.start && performance.now() - startedAt > RESTART_AFTER_MS) {
        startedAt = performance.now();
        await options.start();
      }
    }
    await pause(Math.min(2_000, 50 * 2 ** failures), options.signal);
  }
  return 'stopped';
}

function subscribeOnce(options: FollowOptions): Promise<Attempt> {
  const info = readResidentInfo(options.commonDir);
  if (info === null) return Promise.resolve({ kind: 'retry', start: true });
  const identity = packageIdentity();
  if (identity === null) return Promise.resolve({ kind: 'never' });
  // Another build: it exits within seconds when ours was installed over it (then: absent).
  if (info.identity !== identity || info.protocol !== RESIDENT_PROTOCOL) return Promise.resolve({ kind: 'retry', start: false });
  if (!isOwnSocket(info.socket)) return Promise.resolve({ kind: 'retry', start: true });
  return new Promise((settle) => {
    let accepted = false;
    let done = false;
    const socket = connect(info.socket);
    const finish = (attempt: Attempt) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
      socket.destroy();
      settle(attempt);
    };
    const lost = (start: boolean): Attempt => (accepted ? { kind: 'ended' } : { kind: 'retry', start });
    const onAbort = () => finish({ kind: 'ended' });
    const timer = setTimeout(() => finish(lost(false)), ACCEPT_TIMEOUT_MS);
    options.signal.addEventListener('abort', onAbort, { once: true });
    // Refused or no such file: a `kill -9`'d resident's socket, nothing listens.
    socket.on('error', (error: NodeJS.ErrnoException) => finish(lost(error.code === 'ECONNREFUSED' || error.code === 'ENOENT')));
    socket.on('close', () => finish(lost(false)));
    socket.on('connect', () => writeLine(socket, { protocol: RESIDENT_PROTOCOL, identity, request: { type: 'subscribe', cwd: options.cwd } }));
    onLines(socket, (line) => {
      let reply: ResidentReply;
      try {
        reply = JSON.parse(line) as ResidentReply;
      } catch {
        return finish(lost(false));
      }
      if (reply.type === 'accepted' && !accepted) {
        accepted = true;
        clearTimeout(timer);
        options.onConnected(info.pid);
      } else if (reply.type === 'event' && accepted && isEvent(reply.event)) options.onEvent(reply.event);
      else if (reply.type === 'refused') finish(PASSING.has(reply.reason) ? { kind: 'retry', start: false } : { kind: 'never' });
    });
  });
}

function isEvent(value: unknown): value is AirspaceEvent {
  const event = value as Partial<AirspaceEvent> | null;
  return typeof event === 'object' && event !== null && typeof event.agent === 'string' && Array.isArray(event.advisories);
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
