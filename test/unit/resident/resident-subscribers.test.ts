import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { AirspaceEvent, SubscribedAdvisory } from '../../../src/resident/airspace-event.js';
import { MAX_EVENT_BYTES, MAX_SUBSCRIBERS, Subscribers } from '../../../src/resident/resident-subscribers.js';

/** What the registry uses of a socket: lines written, the bytes it has not sent yet, destroy. */
class Connection extends EventEmitter {
  readonly lines: { type: string; event?: AirspaceEvent; reason?: string }[] = [];
  writableLength = 0;
  destroyed = false;
  write(text: string): boolean {
    for (const line of text.split('\n').filter(Boolean)) this.lines.push(JSON.parse(line));
    return true;
  }
  destroy(): void {
    this.destroyed = true;
    this.emit('close');
  }
  events(): AirspaceEvent[] {
    return this.lines.filter((l) => l.type === 'event').map((l) => l.event!);
  }
}

const advisory = (a: string, b: string, level: 'TA' | 'RA', extra: Partial<SubscribedAdvisory> = {}): SubscribedAdvisory => ({
  a,
  b,
  level,
  risk: level === 'RA' ? 0.9 : 0.4,
  steer: level === 'RA' ? b : null,
  hold: level === 'RA' ? a : null,
  predictedRA: false,
  files: ['src/a.ts'],
  ...extra,
});

function registry(worktrees = ['/r/main', '/r/peer', '/r/third']): { subscribers: Subscribers; asked: string[] } {
  const subscribers = new Subscribers();
  const asked: string[] = [];
  subscribers.enable({ worktrees: () => worktrees, rescoreSoon: (w) => asked.push(w) });
  return { subscribers, asked };
}

const agents = new Map([
  ['/r/main', 'main'],
  ['/r/peer', 'peer'],
  ['/r/third', 'third'],
]);

describe('Subscribers', () => {
  it("sends the subscriber's advisories when a re-score of any worktree changes them, and only then", () => {
    const { subscribers, asked } = registry();
    const main = new Connection();
    expect(subscribers.add(main as unknown as Socket, '/r/main/src')).toBeNull();
    // Nothing known yet about main: its state comes from a re-score asked on the spot.
    expect(asked).toEqual(['/r/main']);
    subscribers.rescored({ worktree: '/r/main', agent: 'main', agentsOfWorktrees: agents, advisories: [] });
    // The peer's re-score raises the pair; a pair of two others does not concern main.
    subscribers.rescored({ worktree: '/r/peer', agent: 'peer', agentsOfWorktrees: agents, advisories: [advisory('peer', 'main', 'TA')] });
    subscribers.rescored({ worktree: '/r/third', agent: 'third', agentsOfWorktrees: agents, advisories: [advisory('third', 'peer', 'RA')] });
    // A risk that moves is no change; a level that does is.
    subscribers.rescored({
      worktree: '/r/peer',
      agent: 'peer',
      agentsOfWorktrees: agents,
      advisories: [advisory('peer', 'main', 'TA', { risk: 0.5 }), advisory('third', 'peer', 'RA')],
    });
    subscribers.rescored({ worktree: '/r/main', agent: 'main', agentsOfWorktrees: agents, advisories: [advisory('main', 'peer', 'RA')] });
    // The pair gone, seen from main's own re-score.
    subscribers.rescored({ worktree: '/r/main', agent: 'main', agentsOfWorktrees: agents, advisories: [] });
    expect(main.lines[0]).toEqual({ type: 'accepted' });
    expect(main.events().map((e) => [e.rescored, e.advisories.map((a) => `${a.a}-${a.b} ${a.level}`)])).toEqual([
      ['/r/main', []],
      ['/r/peer', ['peer-main TA']],
      ['/r/main', ['main-peer RA']],
      ['/r/main', []],
    ]);
    expect(main.events()[0]).toMatchObject({ worktree: '/r/main', agent: 'main', cut: 0 });
  });

  it('refuses past the bound, before the watcher runs, without one, and outside the worktrees', () => {
    const starting = new Subscribers();
    expect(starting.add(new Connection() as unknown as Socket, '/r/main')).toBe('starting');
    starting.disable();
    expect(starting.add(new Connection() as unknown as Socket, '/r/main')).toBe('not watching');
    const { subscribers } = registry();
    expect(subscribers.add(new Connection() as unknown as Socket, '/elsewhere')).toBe('not a worktree of this repository');
    for (let i = 0; i < MAX_SUBSCRIBERS; i++) expect(subscribers.add(new Connection() as unknown as Socket, '/r/main')).toBeNull();
    expect(subscribers.add(new Connection() as unknown as Socket, '/r/main')).toBe('too many subscribers');
    expect(subscribers.size).toBe(MAX_SUBSCRIBERS);
  });

  it('cuts the weakest advisories to fit a line, and drops a reader that does not keep up', () => {
    const { subscribers } = registry();
    const main = new Connection();
    const slow = new Connection();
    subscribers.add(main as unknown as Socket, '/r/main');
    subscribers.add(slow as unknown as Socket, '/r/main');
    slow.writableLength = 1024 * 1024;
    const many = Array.from({ length: 400 }, (_, i) =>
      advisory('main', `peer-${i}`, i === 399 ? 'RA' : 'TA', { files: Array.from({ length: 30 }, (_, f) => `src/${'x'.repeat(200)}-${f}.ts`) }),
    );
    subscribers.rescored({ worktree: '/r/main', agent: 'main', agentsOfWorktrees: agents, advisories: many });
    const [event] = main.events();
    expect(Buffer.byteLength(JSON.stringify({ type: 'event', event }))).toBeLessThanOrEqual(MAX_EVENT_BYTES);
    expect(event!.cut).toBeGreaterThan(0);
    expect(event!.advisories.length + event!.cut).toBe(400);
    // RA first: the strongest is kept; files are bounded too.
    expect(event!.advisories[0]).toMatchObject({ b: 'peer-399', level: 'RA' });
    expect(event!.advisories[0]!.files).toHaveLength(20);
    expect(slow.destroyed).toBe(true);
    expect(slow.events()).toEqual([]);
    expect(subscribers.size).toBe(1);
  });
});
