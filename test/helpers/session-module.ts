/**
 * The module both symbol-channel integration tests change: two exported functions, so one can be
 * removed or re-signed while the other stays. Line numbers matter: the advisories cite them.
 */
export const SESSION = [
  'export function createSession(user: string) {', // 1
  '  return { user };',
  '}',
  '',
  'export function formatUser(user: string): string {', // 5
  '  return user.trim();',
  '}',
  '',
].join('\n');

/** SESSION without `createSession`. */
export const SESSION_WITHOUT_CREATE = SESSION.replace(/export function createSession[\s\S]*?}\n\n/, '');
