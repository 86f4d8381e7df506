import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendSamples, readHistory } from '../../src/state/history-store.js';
import type { InboxMessage } from '../../src/state/inbox-message.js';
import { ackInbox, clearPair, deliverMessage, pendingNew, readInbox } from '../../src/state/inbox-store.js';
import { addIntent, clearIntent, listIntent } from '../../src/state/intent-store.js';
import { resolveStateDirs } from '../../src/state/state-dirs.js';
import { gitIn, initRepo, removeDir, tempDir, userStateFingerprint } from '../helpers/temp-repo.js';

describe('local state: intent, inbox and history under the git dir', () => {
  let root: string;
  let main: string;
  let linked: string;
  let fingerprints: [string, string];

  beforeAll(() => {
    root = tempDir();
    main = join(root, 'main');
    mkdirSync(main);
    initRepo({ 'src/a.ts': 'a\n', 'README.md': '# r\n' }, main);
    linked = join(root, 'linked');
    gitIn(main, 'worktree', 'add', '-q', '-b', 'agent-2', linked);
    fingerprints = [userStateFingerprint(main), userStateFingerprint(linked)];
  });
  afterAll(() => {
    // Nothing we did may show up in the user's index, worktree files, HEAD or branches.
    expect([userStateFingerprint(main), userStateFingerprint(linked)]).toEqual(fingerprints);
    expect(gitIn(main, 'status', '--porcelain')).toBe('');
    removeDir(root);
  });

  it('resolves per-worktree git dirs and one common dir', async () => {
    const a = await resolveStateDirs(main);
    const b = await resolveStateDirs(linked);
    expect(a.gitDir).toBe(join(main, '.git'));
    expect(b.gitDir).toBe(join(main, '.git', 'worktrees', 'linked'));
    expect(b.commonDir).toBe(a.commonDir);
  });

  describe('intent', () => {
    it('normalizes paths relative to the cwd and keeps worktrees apart', async () => {
      expect((await addIntent(join(main, 'src'), ['b.ts', '../docs/x.md', './c.ts', join(main, 'README.md')])).paths).toEqual([
        'src/b.ts',
        'docs/x.md',
        'src/c.ts',
        'README.md',
      ]);
      expect((await addIntent(main, ['src/b.ts', 'lib/'])).paths).toEqual(['docs/x.md', 'src/c.ts', 'README.md', 'src/b.ts', 'lib']);
      expect(await listIntent(join(main, 'src'))).toHaveLength(5);
      expect(await listIntent(linked)).toEqual([]);
    });

    it('rejects paths outside the worktree or into .git, and adds nothing then', async () => {
      await expect(addIntent(main, ['ok.ts', '../outside.ts'])).rejects.toMatchObject({ kind: 'usage', code: 'intent-path-outside' });
      await expect(addIntent(main, ['/etc/passwd'])).rejects.toMatchObject({ code: 'intent-path-outside' });
      await expect(addIntent(main, ['.git/config'])).rejects.toMatchObject({ code: 'intent-path-invalid' });
      await expect(addIntent(main, ['.'])).rejects.toMatchObject({ code: 'intent-path-invalid' });
      expect(await listIntent(main)).not.toContain('ok.ts');
    });

    it('clears some or all, and refuses more than 500 rather than dropping the oldest', async () => {
      expect(await clearIntent(main, ['lib'])).not.toContain('lib');
      expect(await clearIntent(main)).toEqual([]);
      const many = Array.from({ length: 520 }, (_, i) => `f/${i}.ts`);
      await expect(addIntent(linked, many)).rejects.toMatchObject({ kind: 'usage', code: 'intent-too-many' });
      expect(await listIntent(linked)).toEqual([]);
      expect((await addIntent(linked, many.slice(0, 500))).paths).toHaveLength(500);
      await clearIntent(linked);
    });
  });

  describe('inbox', () => {
    const t0 = Date.UTC(2026, 0, 1, 9);
    const message = (over: Partial<InboxMessage> = {}): InboxMessage => ({
      from: 'main',
      to: 'agent-2',
      level: 'TA',
      risk: 0.42,
      files: [{ path: 'src/a.ts', ranges: [[1, 2]] }],
      subjects: ['refactor a'],
      intent: ['src/b.ts'],
      note: 'careful',
      at: t0,
      ...over,
    });

    it('delivers into the peer worktree inbox, shows new messages once', async () => {
      const peerGitDir = (await resolveStateDirs(linked)).gitDir;
      expect(await deliverMessage(peerGitDir, message())).toEqual({ delivered: true });
      expect(await readInbox(main)).toEqual([]);
      expect(await readInbox(linked)).toEqual([{ ...message(), shown: false }]);
      expect(await pendingNew(linked)).toEqual([message()]);
      expect(await pendingNew(linked)).toEqual([]);
      expect((await readInbox(linked))[0]?.shown).toBe(true);
    });

    it('drops duplicates within the cooldown (risk changes do not count), redelivers after it', async () => {
      const peerGitDir = (await resolveStateDirs(linked)).gitDir;
      expect(await deliverMessage(peerGitDir, message({ risk: 0.5, at: t0 + 60_000 }))).toEqual({ delivered: false, reason: 'duplicate' });
      expect(await deliverMessage(peerGitDir, message({ at: t0 + 31 * 60_000 }))).toEqual({ delivered: true });
      expect(await deliverMessage(peerGitDir, message({ at: t0 + 32 * 60_000, level: 'RA', risk: 0.8 }))).toEqual({ delivered: true });
      expect(await deliverMessage(peerGitDir, message({ at: t0 + 33 * 60_000, files: [{ path: 'src/a.ts', ranges: [[1, 9]] }] }))).toEqual({
        delivered: true,
      });
      // The unseen TA at +31 min was superseded by the newer TA with other ranges.
      const pending = await pendingNew(linked);
      expect(pending.map((m) => [m.level, m.at - t0])).toEqual([
        ['RA', 32 * 60_000],
        ['TA', 33 * 60_000],
      ]);
    });

    it('acks, keeps the cooldown memory, and clears a pair', async () => {
      const peerGitDir = (await resolveStateDirs(linked)).gitDir;
      expect(await ackInbox(linked)).toBe(3);
      expect(await readInbox(linked)).toEqual([]);
      expect((await deliverMessage(peerGitDir, message({ at: t0 + 40 * 60_000, level: 'RA', risk: 0.8 }))).delivered).toBe(false);
      expect(await clearPair(linked, 'main')).toBe(0);
      expect((await deliverMessage(peerGitDir, message({ at: t0 + 41 * 60_000, level: 'RA' }))).delivered).toBe(true);
      expect(await clearPair(linked, 'main')).toBe(1);
      expect(await readInbox(linked)).toEqual([]);
      expect(await clearPair(linked, 'nobody')).toBe(0);
    });

    it('stays bounded, rejects invalid messages and survives a corrupt file', async () => {
      const peerGitDir = (await resolveStateDirs(linked)).gitDir;
      for (let i = 0; i < 120; i++) await deliverMessage(peerGitDir, message({ from: `peer-${i}`, at: t0 + i }));
      const inbox = await readInbox(linked);
      expect(inbox).toHaveLength(100);
      expect(inbox.at(-1)?.from).toBe('peer-119');
      const long = await deliverMessage(peerGitDir, message({ from: 'big', subjects: Array(100).fill('s'.repeat(1000)), at: t0 + 500 }));
      expect(long.delivered).toBe(true);
      const big = (await readInbox(linked)).find((m) => m.from === 'big');
      expect(big?.subjects).toHaveLength(20);
      expect(big?.subjects[0]).toHaveLength(300);
      expect(await deliverMessage(peerGitDir, message({ from: 'x\u001b[2J', at: t0 + 600 }))).toEqual({ delivered: false, reason: 'invalid' });
      expect(await deliverMessage(peerGitDir, message({ from: 'y', files: [{ path: '../x', ranges: [] }], at: t0 + 600 }))).toMatchObject({ delivered: false });
      writeFileSync(join(peerGitDir, 'airspace', 'inbox.json'), '{"messages": [ broken');
      expect(await readInbox(linked)).toEqual([]);
      expect((await deliverMessage(peerGitDir, message({ at: t0 + 700 }))).delivered).toBe(true);
    });
  });

  describe('history', () => {
    const t0 = Date.UTC(2026, 0, 1);
    it('round-trips samples per pair, sorted, one per instant', async () => {
      const { commonDir } = await resolveStateDirs(linked);
      await appendSamples(commonDir, [
        { pairKey: 'a|b', at: t0 + 2000, risk: 0.3 },
        { pairKey: 'a|b', at: t0 + 1000, risk: 0.2 },
        { pairKey: '__proto__', at: t0 + 1000, risk: 1.7 },
      ]);
      await appendSamples(commonDir, [{ pairKey: 'a|b', at: t0 + 2000, risk: 0.35 }]);
      const history = await readHistory((await resolveStateDirs(main)).commonDir);
      expect(history['a|b']).toEqual([
        { at: t0 + 1000, risk: 0.2 },
        { at: t0 + 2000, risk: 0.35 },
      ]);
      expect(Object.hasOwn(history, '__proto__')).toBe(true);
      // biome-ignore lint/suspicious/noProto: the test proves a beacon named `__proto__` is stored as plain data
      expect(history.__proto__).toEqual([{ at: t0 + 1000, risk: 1 }]);
    });

    it('keeps 50 samples per pair, 500 pairs, and prunes samples older than 14 days', async () => {
      const { commonDir } = await resolveStateDirs(main);
      await appendSamples(
        commonDir,
        Array.from({ length: 80 }, (_, i) => ({ pairKey: 'many', at: t0 + 10_000 + i, risk: i / 100 })),
      );
      let history = await readHistory(commonDir);
      expect(history.many).toHaveLength(50);
      expect(history.many?.[0]?.at).toBe(t0 + 10_030);
      await appendSamples(
        commonDir,
        Array.from({ length: 520 }, (_, i) => ({ pairKey: `p${i}`, at: t0 + 20_000 + i, risk: 0.1 })),
      );
      history = await readHistory(commonDir);
      expect(Object.keys(history)).toHaveLength(500);
      expect(history.p519).toBeDefined();
      expect(history['a|b']).toBeUndefined();
      await appendSamples(commonDir, [{ pairKey: 'late', at: t0 + 15 * 24 * 3_600_000, risk: 0.5 }]);
      expect(Object.keys(await readHistory(commonDir))).toEqual(['late']);
    });

    it('concurrent appends from several processes-worth of calls lose nothing', async () => {
      const { commonDir } = await resolveStateDirs(main);
      const base = t0 + 15 * 24 * 3_600_000;
      await Promise.all(Array.from({ length: 20 }, (_, i) => appendSamples(commonDir, [{ pairKey: 'race', at: base + i + 1, risk: 0.5 }])));
      expect((await readHistory(commonDir)).race).toHaveLength(20);
    });
  });
});
