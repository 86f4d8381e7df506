/** airspace-hooks' own local state under the git dir: intent, inbox, risk history. */
export { DEFAULT_HISTORY_BOUNDS, appendSamples, readHistory, type HistoryBounds, type HistoryPoint, type RiskSample } from './history-store.js';
export { MESSAGE_BOUNDS, messageKey, type InboxMessage } from './inbox-message.js';
export { DEFAULT_COOLDOWN_MS, MAX_INBOX_MESSAGES, ackInbox, clearPair, deliverMessage, pendingNew, readInbox, type DeliverResult, type InboxEntry } from './inbox-store.js';
export { MAX_INTENT_PATHS, addIntent, clearIntent, listIntent, normalizeIntentPath } from './intent-store.js';
export { resolveStateDirs, stateFile, type StateDirs } from './state-dirs.js';
