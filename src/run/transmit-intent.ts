import type { Link } from '../engine/index.js';
import { runMessages } from '../messages/hooks-and-check.js';
import type { InboxNote } from '../report/check-report.js';
import { clearPair, deliverMessage, dropGoneSenders, pendingNew } from '../state/inbox-store.js';
import type { InboxMessage } from '../state/inbox-message.js';
import type { LineOfWork } from '../traffic/line-of-work.js';
import type { AgentFacts } from '../traffic/to-agent.js';

/**
 * The seed's "transmit intent": on a Traffic or Resolution Advisory with a worktree on this
 * machine, leave the ownship's intent in that worktree's inbox (files and lines, commit subjects,
 * declared intent); when the pair is clear again, drop the stale messages on both sides, and drop
 * the messages of senders that are no longer any line of work (messages only travel between local
 * worktrees, and `check` and the hooks always discover all lines of work, never a named subset). Peers on other machines get
 * the same facts through the beacons. Returns the ownship's new messages, each shown once; one
 * with nothing to tell but its level still says its risk and where to look.
 */
export interface ExchangeInput {
  /** The ownship's git dir (its inbox lives there). */
  readonly gitDir: string;
  readonly ownship: LineOfWork;
  readonly traffic: readonly LineOfWork[];
  /** Lines of work seen but not read this run (a worktree git could not read): their messages stay. */
  readonly unread: readonly string[];
  readonly links: readonly Link[];
  readonly facts: ReadonlyMap<string, AgentFacts>;
  readonly now: number;
}

export async function exchangeMessages(input: ExchangeInput): Promise<InboxNote[]> {
  const own = input.ownship.id;
  const ownInbox = { gitDir: input.gitDir };
  const local = new Map(input.traffic.flatMap((line) => (line.kind === 'worktree' && line.gitDir ? [[line.id, line.gitDir] as const] : [])));
  await Promise.all(
    input.links.map(async (link) => {
      const peer = link.a === own ? link.b : link.a;
      const peerGitDir = local.get(peer);
      if (link.level === 'clear') {
        await clearPair(ownInbox, peer);
        if (peerGitDir) await clearPair({ gitDir: peerGitDir }, own);
        return;
      }
      if (!peerGitDir) return;
      const youAreA = link.a === own;
      const message: InboxMessage = {
        from: own,
        to: peer,
        level: link.level,
        risk: link.risk,
        files: link.sharedFiles.map((f) => ({ path: f.path, ranges: ((youAreA ? f.rangesA : f.rangesB) ?? []).map(([s, e]) => [s, e] as const) })),
        subjects: input.ownship.subjects.slice(0, 5),
        intent: [...(input.facts.get(own)?.intent ?? [])],
        at: input.now,
      };
      await deliverMessage(peerGitDir, message, { now: input.now });
    }),
  );
  // A sender still seen as any line of work (its worktree, or its branch once the worktree is gone)
  // keeps its messages; one seen nowhere is gone.
  await dropGoneSenders(ownInbox, new Set([...input.traffic.map((line) => line.id), ...input.unread]));
  const fresh = await pendingNew(ownInbox);
  return fresh.map((message) => ({
    from: message.from,
    level: message.level,
    risk: message.risk,
    text:
      runMessages.messageText(message.files.map((f) => f.path).join(', '), message.subjects.map((s) => `"${s}"`).join(', '), message.intent.join(', ')) ||
      runMessages.messageWithoutDetail(message.risk),
  }));
}
