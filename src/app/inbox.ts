import { ackInbox, readInbox, type InboxEntry } from '../state/inbox-store.js';

/**
 * `inbox [--ack]`: the messages other agents left this worktree (its git dir found through git),
 * oldest first; with `ack`, the inbox is emptied once they are read (the cooldown memory stays).
 */
export async function readOwnInbox(cwd: string, options: { ack: boolean }): Promise<InboxEntry[]> {
  const messages = await readInbox(cwd);
  if (options.ack) await ackInbox(cwd);
  return messages;
}
