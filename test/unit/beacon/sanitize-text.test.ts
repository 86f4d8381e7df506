import { describe, expect, it } from 'vitest';
import { jsonText, sanitizeJson, sanitizeList, sanitizeText } from '../../../src/report/sanitize-text.js';

const ESC = '\u001b';

describe('sanitizeText', () => {
  it('keeps ordinary text, including non-ASCII', () => {
    expect(sanitizeText('src/auth/login.ts — naïve 日本語')).toBe('src/auth/login.ts — naïve 日本語');
  });

  it('defuses CSI sequences (colours, cursor moves, screen clears): the ESC is shown, the rest is inert text', () => {
    expect(sanitizeText(`${ESC}[31mred${ESC}[0m ${ESC}[2J`)).toBe('\\u001b[31mred\\u001b[0m \\u001b[2J');
  });

  it('defuses OSC sequences terminated by BEL or ST (title, hyperlinks, clipboard)', () => {
    expect(sanitizeText(`${ESC}]0;pwned\u0007ok`)).toBe('\\u001b]0;pwned\\u0007ok');
    expect(sanitizeText(`${ESC}]8;;https://evil.example${ESC}\\click`)).toBe('\\u001b]8;;https://evil.example\\u001b\\click');
  });

  it('shows 8-bit C1 introducers (U+009B CSI, U+009D OSC) as escapes', () => {
    expect(sanitizeText('a\u009b31mb')).toBe('a\\u009b31mb');
    expect(sanitizeText('a\u009d0;title\u009cb')).toBe('a\\u009d0;title\\u009cb');
  });

  it('shows other control characters as escapes and flattens newlines', () => {
    expect(sanitizeText('a\u0000b\u0008c\u007fd')).toBe('a\\u0000b\\u0008c\\u007fd');
    expect(sanitizeText('line1\nline2\r\nline3\rx')).toBe('line1 line2 line3 x');
    expect(sanitizeText('a\tb')).toBe('a b');
    // A peer's diff line keeps its tabs; every other control character is still shown as an escape.
    expect(sanitizeText('\tif (x)\t{\u0000\u001b[2J', { allowTabs: true })).toBe('\tif (x)\t{\\u0000\\u001b[2J');
    expect(sanitizeText('multi\nline', { allowNewlines: true })).toBe('multi\nline');
    expect(sanitizeText('a\u2028b')).toBe('a\\u2028b');
  });

  it('shows bidi overrides and invisible characters as escapes (Trojan Source)', () => {
    expect(sanitizeText('src/\u202eexe.txt')).toBe('src/\\u202eexe.txt');
    expect(sanitizeText('ad\u2066m\u2069in\u200b\ufeff')).toBe('ad\\u2066m\\u2069in\\u200b\\ufeff');
    expect(sanitizeText('a\u00a0b\u{e0041}')).toBe('a\\u00a0b\\u{e0041}');
  });

  it('never prints two different names the same: an invisible character stays visible', () => {
    const names = ['admin', 'ad\u200bmin', 'admin\u200b', 'ad\u00admin', 'admin\u2060', 'ad\u202emin', 'admin\u{e0020}', 'admin\u3164'];
    const shown = names.map((name) => sanitizeText(name));
    expect(new Set(shown).size).toBe(names.length);
  });

  it('caps the length on code points with an ellipsis', () => {
    expect(sanitizeText('x'.repeat(500))).toHaveLength(200);
    expect(sanitizeText('x'.repeat(500)).endsWith('…')).toBe(true);
    const emoji = sanitizeText('😀'.repeat(10), { maxLength: 5 });
    expect(Array.from(emoji)).toHaveLength(5);
    expect(emoji).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  });

  it('handles megabyte hostile input and never returns an ESC', () => {
    // Its speed (no regex backtracking on 800 kB of escape openers) is measured by bench/timing.mjs.
    const hostile = `${ESC}[`.repeat(200_000) + `${ESC}]`.repeat(200_000);
    const out = sanitizeText(hostile, { maxLength: 1000 });
    expect(out).not.toContain(ESC);
  });

  it('replaces lone surrogates and stringifies non-strings', () => {
    expect(sanitizeText('a\ud800b')).toBe('a\\ud800b');
    expect(sanitizeText(42)).toBe('42');
    expect(sanitizeText(null)).toBe('');
  });

  it('sanitizes lists and caps their length', () => {
    const list = sanitizeList([`${ESC}[1mA`, 'B', 'C'], 2);
    expect(list).toEqual(['\\u001b[1mA', 'B', '… 1 more']);
  });
});

describe('sanitizeJson / jsonText (every --json output path)', () => {
  it('cleans every string, keys included, like text: bidi, escape sequences, C0 and C1 controls', () => {
    const hostile = `fix\u202e${ESC}]0;pwned\u0007 a\u009b31mb\u2066c\u0000d`;
    const cleaned = sanitizeJson({ [`key\u202e`]: hostile, list: [hostile, 3, true, null], nested: { note: `a\nb` } });
    const shown = 'fix\\u202e\\u001b]0;pwned\\u0007 a\\u009b31mb\\u2066c\\u0000d';
    expect(cleaned).toEqual({ 'key\\u202e': shown, list: [shown, 3, true, null], nested: { note: 'a\nb' } });
  });

  it('cuts nothing: long strings keep their length', () => {
    const long = 'x'.repeat(5000);
    expect(sanitizeJson({ long })).toEqual({ long });
  });

  it('prints no raw bidi override or C1 control in the JSON text', () => {
    const text = jsonText({ subject: 'evil\u202etxt.exe \u009d0;t\u009c', at: new Date(0) });
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what this pattern finds
    expect(text).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u0080-\u009f\u001b]/);
    expect(JSON.parse(text)).toEqual({ subject: 'evil\\u202etxt.exe \\u009d0;t\\u009c', at: '1970-01-01T00:00:00.000Z' });
  });
});
