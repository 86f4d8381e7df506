import { describe, expect, it } from 'vitest';
import { encodeAgentId } from '../../../src/beacon/agent-ref.js';
import { beaconLimits } from '../../../src/beacon/beacon-limits.js';
import { liveIntent } from '../../../src/beacon/beacon-schema.js';
import { parseBeacon } from '../../../src/beacon/parse-beacon.js';
import { makeBeacon, NOW } from './beacon-fixture.js';

const ref = encodeAgentId('feature/login');
const bytes = (value: unknown): Buffer => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value));
const parse = (value: unknown, component = ref, now = NOW) => parseBeacon(bytes(value), component, { now });

function withFile(file: Record<string, unknown>): unknown {
  const b = makeBeacon();
  return { ...b, workingSet: { ...b.workingSet, files: [file] } };
}

describe('parseBeacon', () => {
  it('accepts a valid beacon and drops unknown keys', () => {
    const result = parse({ ...makeBeacon(), extra: { nested: true } });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.beacon.agent).toBe('feature/login');
    expect(result.beacon.workingSet.files[0]?.ranges).toEqual([
      [10, 14],
      [40, 41],
    ]);
    expect('extra' in result.beacon).toBe(false);
  });

  it('checks the size before parsing', () => {
    const result = parseBeacon(Buffer.alloc(300 * 1024, 0x20), ref, { now: NOW });
    expect(result).toMatchObject({ ok: false, reason: 'too-large' });
    const small = parseBeacon(bytes(makeBeacon()), ref, { now: NOW, limits: beaconLimits({ maxBytes: 100 }) });
    expect(small).toMatchObject({ ok: false, reason: 'too-large' });
  });

  it.each([
    ['truncated JSON', '{"schema":1,'],
    ['not UTF-8', Buffer.from([0x7b, 0xff, 0xfe, 0x7d])],
    ['empty', ''],
  ])('rejects malformed JSON: %s', (_name, raw) => {
    const result = parseBeacon(typeof raw === 'string' ? Buffer.from(raw) : raw, ref, { now: NOW });
    expect(result).toMatchObject({ ok: false, reason: 'malformed-json' });
  });

  it('refuses unknown schema versions before validating the rest', () => {
    expect(parse({ schema: 2, anything: 'goes' })).toMatchObject({ ok: false, reason: 'unknown-version', detail: '2' });
    expect(parse({ ...makeBeacon(), schema: '1' })).toMatchObject({ ok: false, reason: 'invalid' });
    expect(parse([1, 2])).toMatchObject({ ok: false, reason: 'invalid' });
  });

  it.each([
    ['parent dir', '../../etc/passwd'],
    ['inner dot-dot', 'src/../../x'],
    ['absolute', '/etc/passwd'],
    ['drive letter', 'C:/Windows/x'],
    ['backslash', 'src\\..\\x'],
    ['NUL', 'src/a\u0000b'],
    ['escape sequence', 'src/\u001b]0;pwn\u0007.ts'],
    ['bidi override', 'src/\u202etxt.exe'],
    ['git dir', '.git/hooks/pre-commit'],
    ['empty segment', 'src//a.ts'],
  ])('rejects an unsafe path: %s', (_name, path) => {
    expect(parse(withFile({ file: path, status: 'M', ranges: [[1, 2]] }))).toMatchObject({ ok: false, reason: 'invalid' });
    expect(parse({ ...makeBeacon(), intent: [path] })).toMatchObject({ ok: false, reason: 'invalid' });
  });

  it.each([
    ['range as string', { file: 'a.ts', status: 'M', ranges: '1-2' }],
    ['reversed range', { file: 'a.ts', status: 'M', ranges: [[5, 2]] }],
    ['fractional line', { file: 'a.ts', status: 'M', ranges: [[1.5, 2]] }],
    ['negative line', { file: 'a.ts', status: 'M', ranges: [[-1, 2]] }],
    ['unknown status', { file: 'a.ts', status: 'Z' }],
    ['file as number', { file: 7, status: 'M' }],
  ])('rejects wrong types in files: %s', (_name, file) => {
    expect(parse(withFile(file))).toMatchObject({ ok: false, reason: 'invalid' });
  });

  it('rejects wrong top-level types and control characters in ids', () => {
    expect(parse({ ...makeBeacon(), committedWork: 'lots' })).toMatchObject({ ok: false, reason: 'invalid' });
    expect(parse({ ...makeBeacon(), head: 'HEAD' })).toMatchObject({ ok: false, reason: 'invalid' });
    expect(parse({ ...makeBeacon(), updatedAt: NOW / 1000 })).toMatchObject({ ok: false, reason: 'invalid' });
    const evil = 'x\u001b[2J';
    expect(parse({ ...makeBeacon(), agent: evil }, encodeAgentId(evil))).toMatchObject({ ok: false, reason: 'invalid' });
    expect(parse({ ...makeBeacon(), workingSet: { base: null, files: [] } })).toMatchObject({ ok: false, reason: 'invalid' });
  });

  it('reads the intent expiry when there is one, and drops the expired paths from the live intent', () => {
    const older = parse(makeBeacon({ intent: ['src/a.ts'] }));
    expect(older.ok && liveIntent(older.beacon, NOW + 86_400_000)).toEqual(['src/a.ts']);
    const expiring = parse(makeBeacon({ intent: ['src/a.ts', '__proto__'], intentExpiresAt: [['__proto__', NOW + 60_000]] }));
    expect(expiring.ok).toBe(true);
    if (!expiring.ok) return;
    expect(liveIntent(expiring.beacon, NOW + 59_999)).toEqual(['src/a.ts', '__proto__']);
    expect(liveIntent(expiring.beacon, NOW + 60_000)).toEqual(['src/a.ts']);
    expect(parse({ ...makeBeacon(), intentExpiresAt: [['src/a.ts', NOW / 1000]] })).toMatchObject({ ok: false, reason: 'invalid' });
    expect(parse({ ...makeBeacon(), intentExpiresAt: [['../etc/passwd', NOW]] })).toMatchObject({ ok: false, reason: 'invalid' });
    expect(parse({ ...makeBeacon(), intentExpiresAt: { 'src/a.ts': NOW } })).toMatchObject({ ok: false, reason: 'invalid' });
  });

  it('rejects a beacon whose agent id does not match its ref', () => {
    expect(parse(makeBeacon(), encodeAgentId('someone-else'))).toMatchObject({ ok: false, reason: 'id-mismatch' });
    expect(parse(makeBeacon(), 'feature/login')).toMatchObject({ ok: false, reason: 'id-mismatch' });
  });

  it('expires old beacons and refuses ones from the far future', () => {
    const day = 24 * 3_600_000;
    expect(parse(makeBeacon({ updatedAt: NOW - day - 1 }))).toMatchObject({ ok: false, reason: 'expired' });
    expect(parse(makeBeacon({ updatedAt: NOW - day + 1000 })).ok).toBe(true);
    expect(parseBeacon(bytes(makeBeacon({ updatedAt: NOW - 61_000 })), ref, { now: NOW, ttlMs: 60_000 })).toMatchObject({ reason: 'expired' });
    expect(parse(makeBeacon({ updatedAt: NOW + 60 * 60_000 }))).toMatchObject({ ok: false, reason: 'future' });
    expect(parse(makeBeacon({ updatedAt: NOW + 60_000 })).ok).toBe(true);
  });

  it('collapses more than 500 ranges of a file to one span', () => {
    const ranges = Array.from({ length: 600 }, (_, i) => [i * 10 + 1, i * 10 + 3]);
    const result = parse(withFile({ file: 'big.ts', status: 'M', ranges }));
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.beacon.workingSet.files[0]?.ranges).toEqual([[1, 5993]]);
  });
});
