import { createHash } from 'node:crypto';

/**
 * Every file or block we write carries one fingerprint line:
 *
 *   # airspace-hooks:fingerprint v=<version> sha=<12 hex> [key=value ...]
 *
 * `sha` hashes the text with that line reduced to its bare prefix, so we can tell our untouched
 * text (safe to replace or delete) from text the user edited after us (never deleted silently).
 * The shipped templates in hooks/ carry the bare prefix; stamping fills it in.
 */
const PREFIX = '# airspace-hooks:fingerprint';
const LINE = /^# airspace-hooks:fingerprint(?:[ \t].*)?$/m;

export interface Fingerprint {
  readonly version: string;
  readonly sha: string;
  readonly attributes: Readonly<Record<string, string>>;
  /** The text still hashes to `sha`: nobody edited it since we wrote it. */
  readonly intact: boolean;
}

export function stampFingerprint(text: string, version: string, attributes: Record<string, string> = {}): string {
  if (!LINE.test(text)) throw new Error('text has no fingerprint line');
  const bare = text.replace(LINE, PREFIX);
  const extra = Object.entries(attributes)
    .map(([key, value]) => ` ${key}=${value}`)
    .join('');
  return bare.replace(LINE, `${PREFIX} v=${version} sha=${digest(bare)}${extra}`);
}

export function readFingerprint(text: string): Fingerprint | null {
  const match = LINE.exec(text);
  if (!match) return null;
  const fields = new Map<string, string>();
  for (const token of match[0].slice(PREFIX.length).trim().split(/\s+/)) {
    const eq = token.indexOf('=');
    if (eq > 0) fields.set(token.slice(0, eq), token.slice(eq + 1));
  }
  const version = fields.get('v') ?? 'unknown';
  const sha = fields.get('sha') ?? '';
  fields.delete('v');
  fields.delete('sha');
  const bare = text.replace(LINE, PREFIX);
  return { version, sha, attributes: Object.fromEntries(fields), intact: sha !== '' && digest(bare) === sha };
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 12);
}
