import { afterEach, describe, expect, it } from 'vitest';
import type { Link } from '../../src/engine/index.js';
import { exchangeMessages } from '../../src/run/transmit-intent.js';
import { readInbox } from '../../src/state/inbox-store.js';
import type { LineOfWork } from '../../src/traffic/line-of-work.js';
import { removeDir, tempDir } from '../helpers/temp-repo.js';

/**
 * The inbox exchange between two worktrees of one machine, on plain directories as their git dirs
 * (the exchange reads and writes only `<git dir>/airspace/inbox.json`).
 */
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) removeDir(dir);
});

const line = (id: string, gitDir: string, subjects: string[] = []): LineOfWork => ({ id, kind: 'worktree', gitDir, subjects }) as unknown as LineOfWork;

/** An RA whose risk came from a channel with no shared file (the import graph, say). */
const raWithoutFiles = (a: string, b: string): Link =>
  ({ a, b, level: 'RA', risk: 0.85, distance: 0.15, channels: {}, driver: 'dependency', sharedFiles: [], evidence: [], steer: a, hold: b }) as unknown as Link;

function twoWorktrees() {
  const me = tempDir();
  const peer = tempDir();
  dirs.push(me, peer);
  return { me: line('me', me), peer: line('s4aba', peer) };
}

const exchange = (own: LineOfWork, traffic: LineOfWork[], links: Link[], unread: string[] = []) =>
  exchangeMessages({ gitDir: own.gitDir as string, ownship: own, traffic, unread, links, facts: new Map(), now: 1_000 });

describe('exchangeMessages', () => {
  it('a message with no file, commit or intent to tell still says something: its risk and where to look', async () => {
    const { me, peer } = twoWorktrees();
    await exchange(peer, [me], [raWithoutFiles('s4aba', 'me')]);
    const notes = await exchange(me, [peer], [raWithoutFiles('s4aba', 'me')]);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ from: 's4aba', level: 'RA' });
    expect(notes[0]?.text).toBe('risk 0.85, no shared file, commit or intent to show; `airspace-hooks check` says why');
  });

  it('drops the messages of a sender that is no longer a worktree here, instead of telling them', async () => {
    const { me, peer } = twoWorktrees();
    await exchange(peer, [me], [raWithoutFiles('s4aba', 'me')]);
    expect(await readInbox({ gitDir: me.gitDir as string })).toHaveLength(1);
    // A worktree git could not read this run is still there: its message stays.
    await exchange(me, [], [], ['s4aba']);
    expect(await readInbox({ gitDir: me.gitDir as string })).toHaveLength(1);
    // The peer's worktree was removed and its branch deleted: it is no longer traffic, nor a pair.
    expect(await exchange(me, [], [])).toEqual([]);
    expect(await readInbox({ gitDir: me.gitDir as string })).toEqual([]);
  });
});
