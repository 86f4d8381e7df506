import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { renderRadarHtml, serializeJsonForScript } from '../../src/report/radar-html.js';
import { HOSTILE_AGENT, HOSTILE_PATH, storyScans } from './radar-fixture.js';

const ROOT = join(import.meta.dirname, '..', '..');
if (!existsSync(join(ROOT, 'dist', 'report', 'radar-client.js'))) execFileSync(process.execPath, [join(ROOT, 'scripts', 'bundle-radar.mjs')]);

function dataBlock(html: string): string {
  const match = /<script type="application\/json" id="airspace-radar-data">([\s\S]*?)<\/script>/.exec(html);
  if (!match) throw new Error('no data block');
  return match[1]!;
}

describe('renderRadarHtml', () => {
  const frames = storyScans().map((scan, i) => ({ title: `step ${i} </title><script>`, at: 1_700_000_000_000 + i, scan, notes: ['a\u2028b'] }));
  const html = renderRadarHtml(frames, { title: 'radar </title><b>x' });

  it('is one self-contained file: no external script, style, link or fetch target', () => {
    expect(html).not.toMatch(/<script[^>]+src=/i);
    expect(html).not.toMatch(/<link[^>]+href=/i);
    expect(html).toMatch(/Content-Security-Policy" content="default-src 'none'/);
    expect(html.length).toBeGreaterThan(200_000); // three.js is inlined
    expect(html).toContain('.legend'); // the CSS is inlined
  });

  it('keeps untrusted names inside the JSON block, escaped, and reads them back intact', () => {
    const block = dataBlock(html);
    expect(block).not.toMatch(/<\/?script/i);
    expect(block).not.toContain('\u2028');
    const parsed = JSON.parse(block) as { frames: { title: string; scan: { positions: Record<string, unknown>; fileCoordinates: Record<string, unknown> } }[] };
    expect(parsed.frames).toHaveLength(3);
    expect(Object.keys(parsed.frames[0]!.scan.positions)).toContain(HOSTILE_AGENT);
    // Peer text is cleaned by the rule of every output path: the line separator shows as `\u2028`.
    expect(Object.keys(parsed.frames[0]!.scan.fileCoordinates)).toContain(HOSTILE_PATH.replace('\u2028', '\\u2028'));
    expect(parsed.frames[0]!.title).toBe('step 0 </title><script>');
  });

  it('escapes the page title and ends every script element exactly where it should', () => {
    expect(html).toContain('<title>radar &lt;/title&gt;&lt;b&gt;x</title>');
    expect(html.match(/<\/script/gi)).toHaveLength(2);
  });

  it('accepts a single frame and refuses none', () => {
    expect(dataBlock(renderRadarHtml(frames[0]!))).toContain('"frames":[{');
    expect(() => renderRadarHtml([])).toThrow(expect.objectContaining({ code: 'radar-no-frames' }));
  });

  it('serializes <, >, & and the JS line separators as escapes', () => {
    expect(serializeJsonForScript({ s: '</script><!--&\u2028\u2029' })).toBe('{"s":"\\u003c/script\\u003e\\u003c!--\\u0026\\u2028\\u2029"}');
  });
});
