import { realpathSync } from 'node:fs';
import type { Socket } from 'node:net';
import { sep } from 'node:path';
import type { AirspaceEvent, SubscribedAdvisory } from './airspace-event.js';
import { writeLine } from './resident-protocol.js';

/**
 * The resident's subscriptions (docs/decisions/resident.md, "Subscriptions"): a `subscribe`
 * question keeps its connection open, and gets an `event` line whenever a background re-score
 * (src/resident/worktree-watcher.ts) — of its worktree or of any other one — changes the
 * advisories of its worktree's agent: a new pair, a level or steer change, a pair gone. What each
 * agent's advisories are is kept here from the re-scores themselves: a re-score of worktree X
 * replaces every pair of X's agent, so a subscriber in W learns of the pair (X, W) from X's run
 * without its own worktree being judged again.
 *
 * Bounded: at most MAX_SUBSCRIBERS connections, one line at most MAX_EVENT_BYTES (the weakest
 * advisories are cut, and counted), and a reader that leaves more than MAX_UNREAD_BYTES unread is
 * dropped — the resident never buffers for a client that does not keep up.
 */
export const MAX_SUBSCRIBERS = 32;
export const MAX_EVENT_BYTES = 64 * 1024;
const MAX_UNREAD_BYTES = 256 * 1024;
const MAX_FILES = 20;
const MAX_TEXT = 1024;

/** What one re-score says: its worktree's agent, the agents of the worktrees it saw, its advisories. */
export interface Rescored {
  readonly worktree: string;
  readonly agent: string;
  /** Worktree path → agent id, for every worktree the run compared with. */
  readonly agentsOfWorktrees: ReadonlyMap<string, string>;
  readonly advisories: readonly SubscribedAdvisory[];
}

/** What the registry needs from the watcher: the worktrees it watches, and a re-score on request. */
export interface SubscriptionSource {
  readonly worktrees: () => readonly string[];
  readonly rescoreSoon: (worktree: string) => void;
}

interface Subscriber {
  readonly socket: Socket;
  readonly worktree: string;
  lastSent: string | null;
}

export class Subscribers {
  private readonly open = new Set<Subscriber>();
  private readonly pairs = new Map<string, SubscribedAdvisory>();
  private readonly agents = new Map<string, string>();
  private source: SubscriptionSource | null | 'off' = null;

  get size(): number {
    return this.open.size;
  }

  /** Once the watcher runs; before that a subscription is refused as `starting` (the client retries). */
  enable(source: SubscriptionSource): void {
    this.source = source;
  }

  /** No watcher (`resident.watch: false`, or it failed): nothing would ever be sent. */
  disable(): void {
    this.source = 'off';
  }

  /** Takes over `socket`, or returns why not (the caller refuses with it). */
  add(socket: Socket, cwd: string): string | null {
    if (this.source === 'off') return 'not watching';
    if (this.source === null) return 'starting';
    if (this.open.size >= MAX_SUBSCRIBERS) return 'too many subscribers';
    const worktree = worktreeOf(cwd, this.source.worktrees());
    if (worktree === null) return 'not a worktree of this repository';
    const subscriber: Subscriber = { socket, worktree, lastSent: null };
    this.open.add(subscriber);
    socket.on('close', () => this.open.delete(subscriber));
    writeLine(socket, { type: 'accepted' });
    // Its state now: from what earlier re-scores found, or from a re-score of it on the spot.
    if (this.agents.has(worktree)) this.send(subscriber, worktree);
    else this.source.rescoreSoon(worktree);
    return null;
  }

  rescored(run: Rescored): void {
    for (const [worktree, agent] of [...run.agentsOfWorktrees, [run.worktree, run.agent] as const]) {
      const before = this.agents.get(worktree);
      this.agents.set(worktree, agent);
      // A checkout gave the worktree another agent: the old one's pairs are nobody's now.
      if (before !== undefined && before !== agent && ![...this.agents.values()].includes(before)) this.forget(before);
    }
    this.forget(run.agent);
    for (const advisory of run.advisories) this.pairs.set(pairKey(advisory), bounded(advisory));
    for (const subscriber of this.open) this.send(subscriber, run.worktree);
  }

  private forget(agent: string): void {
    for (const [key, pair] of this.pairs) if (pair.a === agent || pair.b === agent) this.pairs.delete(key);
  }

  private send(subscriber: Subscriber, rescored: string): void {
    const agent = this.agents.get(subscriber.worktree);
    if (agent === undefined) return;
    const advisories = [...this.pairs.values()].filter((p) => p.a === agent || p.b === agent).sort(strongestFirst);
    const sameAs = JSON.stringify(advisories.map((p) => [pairKey(p), p.level, p.steer]));
    if (sameAs === subscriber.lastSent) return;
    subscriber.lastSent = sameAs;
    if (subscriber.socket.writableLength > MAX_UNREAD_BYTES) return void subscriber.socket.destroy();
    writeLine(subscriber.socket, { type: 'event', event: fitted({ at: Date.now(), worktree: subscriber.worktree, agent, rescored, advisories, cut: 0 }) });
  }
}

/** The worktree containing `cwd` (the longest: a linked worktree may sit inside the main one). */
function worktreeOf(cwd: string, worktrees: readonly string[]): string | null {
  const real = realPath(cwd);
  const inside = (root: string) => real === root || real.startsWith(`${root}${sep}`);
  return [...worktrees].sort((a, b) => b.length - a.length).find((w) => inside(w) || inside(realPath(w))) ?? null;
}

function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** Cuts the weakest advisories until the line fits (each one's size counted once: a line may list hundreds). */
function fitted(event: AirspaceEvent): AirspaceEvent {
  let bytes = Buffer.byteLength(JSON.stringify({ type: 'event', event: { ...event, advisories: [], cut: event.advisories.length } }));
  let kept = 0;
  for (const advisory of event.advisories) {
    bytes += Buffer.byteLength(JSON.stringify(advisory)) + 1;
    if (bytes > MAX_EVENT_BYTES) break;
    kept += 1;
  }
  return { ...event, advisories: event.advisories.slice(0, kept), cut: event.advisories.length - kept };
}

function bounded(advisory: SubscribedAdvisory): SubscribedAdvisory {
  const text = (value: string) => value.slice(0, MAX_TEXT);
  const name = (value: string | null) => (value === null ? null : text(value));
  return {
    ...advisory,
    a: text(advisory.a),
    b: text(advisory.b),
    steer: name(advisory.steer),
    hold: name(advisory.hold),
    files: advisory.files.slice(0, MAX_FILES).map(text),
  };
}

const pairKey = (pair: { readonly a: string; readonly b: string }) => [pair.a, pair.b].sort().join('\0');
const strongestFirst = (x: SubscribedAdvisory, y: SubscribedAdvisory) =>
  (x.level === y.level ? 0 : x.level === 'RA' ? -1 : 1) || y.risk - x.risk || pairKey(x).localeCompare(pairKey(y));
