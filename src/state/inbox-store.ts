/**
 * Per-worktree inbox (`<git-dir>/airspace/inbox.json`). Between worktrees on one machine, an
 * advisory is delivered straight into the peer's inbox; the hooks print new messages once
 * (`pendingNew`), `inbox` lists them, `inbox --ack` empties it. A message equal to one delivered
 * within the cooldown is dropped; a newer unseen message from the same sender and level replaces
 * the older one; when the pair is clear again, or its sender is gone, its messages and cooldowns
 * are cleared.
 */
import { readJsonFile, updateJsonFile } from './json-file.js';
import { boundMessage, isValidMessage, messageKey, type InboxMessage } from './inbox-message.js';
import { resolveStateDirs, stateFile } from './state-dirs.js';

export const DEFAULT_COOLDOWN_MS = 30 * 60 * 1000;
export const MAX_INBOX_MESSAGES = 100;
const MAX_RECENT = 1000;
const FILE = 'inbox.json';
const MAX_FILE_BYTES = 4 * 1024 * 1024;

export interface InboxEntry extends InboxMessage {
  /** Already printed once by a hook. */
  readonly shown: boolean;
}

interface Recent {
  readonly key: string;
  readonly from: string;
  readonly at: number;
}

interface InboxFile {
  readonly version: 1;
  readonly messages: InboxEntry[];
  readonly recent: Recent[];
}

function load(value: unknown): InboxFile {
  const raw = (value ?? {}) as Partial<Record<keyof InboxFile, unknown>>;
  const messages = Array.isArray(raw.messages)
    ? raw.messages.filter((m): m is InboxEntry => isValidMessage(m)).map((m) => ({ ...boundMessage(m), shown: (m as { shown?: unknown }).shown === true }))
    : [];
  const recent = Array.isArray(raw.recent)
    ? raw.recent.filter((r): r is Recent => typeof r?.key === 'string' && typeof r?.from === 'string' && typeof r?.at === 'number')
    : [];
  return { version: 1, messages: messages.slice(-MAX_INBOX_MESSAGES), recent: recent.slice(-MAX_RECENT) };
}

export interface DeliverOptions {
  readonly cooldownMs?: number;
  /** Epoch ms; defaults to the message's `at`. */
  readonly now?: number;
}

export interface DeliverResult {
  readonly delivered: boolean;
  readonly reason?: 'duplicate' | 'invalid';
}

/** Delivers into the inbox of the worktree whose git dir is `peerGitDir`. */
export async function deliverMessage(peerGitDir: string, message: InboxMessage, options: DeliverOptions = {}): Promise<DeliverResult> {
  const bounded = boundMessage(message);
  if (!isValidMessage(bounded)) return { delivered: false, reason: 'invalid' };
  const now = options.now ?? bounded.at;
  const cooldown = options.cooldownMs ?? DEFAULT_COOLDOWN_MS;
  const key = messageKey(bounded);
  let delivered = false;
  await updateJsonFile(stateFile(peerGitDir, FILE), MAX_FILE_BYTES, (current): InboxFile => {
    const inbox = load(current);
    const recent = inbox.recent.filter((r) => now - r.at < cooldown && r.at <= now + cooldown);
    if (recent.some((r) => r.key === key)) return { ...inbox, recent };
    delivered = true;
    const messages = inbox.messages.filter((m) => m.shown || m.from !== bounded.from || m.level !== bounded.level);
    messages.push({ ...bounded, shown: false });
    recent.push({ key, from: bounded.from, at: now });
    return { version: 1, messages: messages.slice(-MAX_INBOX_MESSAGES), recent: recent.slice(-MAX_RECENT) };
  });
  return delivered ? { delivered } : { delivered, reason: 'duplicate' };
}

/**
 * Whose inbox: a worktree path (its git dir is looked up, one git process), or the git dir itself
 * when the caller already knows it — a hook touching many peers' inboxes must not pay a process each.
 */
export type InboxLocation = string | { readonly gitDir: string };

async function inboxFile(at: InboxLocation): Promise<string> {
  const gitDir = typeof at === 'string' ? (await resolveStateDirs(at)).gitDir : at.gitDir;
  return stateFile(gitDir, FILE);
}

/** All messages not acknowledged yet, oldest first. */
export async function readInbox(cwd: InboxLocation): Promise<InboxEntry[]> {
  return load(await readJsonFile(await inboxFile(cwd), MAX_FILE_BYTES)).messages;
}

/** Messages never shown before; marks them shown unless `markShown` is false (hooks print each once). */
export async function pendingNew(cwd: InboxLocation, options: { markShown?: boolean } = {}): Promise<InboxMessage[]> {
  const file = await inboxFile(cwd);
  const inbox = load(await readJsonFile(file, MAX_FILE_BYTES));
  const fresh = inbox.messages.filter((m) => !m.shown);
  if (fresh.length === 0 || options.markShown === false) return fresh.map(strip);
  const shownKeys = new Set(fresh.map(messageKey));
  await updateJsonFile(file, MAX_FILE_BYTES, (current): InboxFile => {
    const latest = load(current);
    return { ...latest, messages: latest.messages.map((m) => (shownKeys.has(messageKey(m)) ? { ...m, shown: true } : m)) };
  });
  return fresh.map(strip);
}

/** Empties the inbox (the cooldown memory stays, so the same message is not redelivered at once). */
export async function ackInbox(cwd: InboxLocation): Promise<number> {
  let removed = 0;
  await updateJsonFile(await inboxFile(cwd), MAX_FILE_BYTES, (current): InboxFile => {
    const inbox = load(current);
    removed = inbox.messages.length;
    return { ...inbox, messages: [] };
  });
  return removed;
}

/** The pair with `peerId` is clear again: drop its messages and cooldowns, so a new encounter is news. */
export async function clearPair(cwd: InboxLocation, peerId: string): Promise<number> {
  const file = await inboxFile(cwd);
  // Called for every clear pair on every hook run: do not rewrite the file when there is nothing to drop.
  const before = load(await readJsonFile(file, MAX_FILE_BYTES));
  if (!before.messages.some((m) => m.from === peerId) && !before.recent.some((r) => r.from === peerId)) return 0;
  let removed = 0;
  await updateJsonFile(file, MAX_FILE_BYTES, (current): InboxFile => {
    const inbox = load(current);
    const messages = inbox.messages.filter((m) => m.from !== peerId);
    removed = inbox.messages.length - messages.length;
    return { version: 1, messages, recent: inbox.recent.filter((r) => r.from !== peerId) };
  });
  return removed;
}

/**
 * Drops the messages of every sender not in `senders`: a worktree that was removed (its branch
 * deleted, its work discarded) sends nothing again and never becomes a clear pair, so without this
 * its last advisory would be news about work that no longer exists until `inbox --ack`.
 */
export async function dropGoneSenders(cwd: InboxLocation, senders: ReadonlySet<string>): Promise<number> {
  const file = await inboxFile(cwd);
  const gone = (from: string) => !senders.has(from);
  // Called on every hook run: do not rewrite the file when there is nothing to drop.
  const before = load(await readJsonFile(file, MAX_FILE_BYTES));
  if (!before.messages.some((m) => gone(m.from))) return 0;
  let removed = 0;
  await updateJsonFile(file, MAX_FILE_BYTES, (current): InboxFile => {
    const inbox = load(current);
    const messages = inbox.messages.filter((m) => !gone(m.from));
    removed = inbox.messages.length - messages.length;
    return { version: 1, messages, recent: inbox.recent.filter((r) => !gone(r.from)) };
  });
  return removed;
}

function strip(entry: InboxEntry): InboxMessage {
  const { shown: _shown, ...message } = entry;
  return message;
}
