import { describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { serveRadar, type LiveScan } from '../../src/report/radar-server.js';
import { fileCloud, scanOf } from './radar-fixture.js';

const files = fileCloud(10);
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('serveRadar', () => {
  it('serves the page and the latest scan, re-scanning on the interval but never concurrently', async () => {
    let calls = 0;
    let active = 0;
    let maxActive = 0;
    const server = await serveRadar({
      port: 0,
      intervalMs: 100,
      scan: async () => {
        active += 1;
        maxActive = Math.max(maxActive, active);
        calls += 1;
        const x = calls;
        await sleep(250); // slower than the interval
        active -= 1;
        return {
          scan: scanOf(
            [
              { id: 'a', at: [0, 0, 0] },
              { id: 'b', at: [x, 0, 0] },
            ],
            files,
          ),
          ownship: 'a',
        };
      },
    });
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      const page = await get(server.url);
      expect(page.status).toBe(200);
      expect(page.type).toMatch(/text\/html/);
      expect(page.body).toContain('"poll":{"path":"/scan.json"');
      const first = JSON.parse((await get(`${server.url}scan.json`)).body) as LiveScan;
      // The first scan ran before the server answered; under load a second may already be done.
      expect(first.seq).toBeGreaterThanOrEqual(1);
      expect(first.scan?.positions.b).toEqual([first.seq, 0, 0]);
      expect(first.ownship).toBe('a');
      // Wait for the third scan (an event), polling, instead of a fixed sleep that a loaded machine may outlast.
      let later = JSON.parse((await get(`${server.url}scan.json`)).body) as LiveScan;
      for (let i = 0; i < 200 && later.seq < 3; i++) {
        await sleep(50);
        later = JSON.parse((await get(`${server.url}scan.json`)).body) as LiveScan;
      }
      expect(later.seq).toBeGreaterThanOrEqual(3);
      expect(later.scan?.positions.b?.[0]).toBe(later.seq);
      expect(maxActive).toBe(1);
      expect((await get(`${server.url}nope`)).status).toBe(404);
      // DNS rebinding: a request addressed to another name is refused.
      expect((await get(`${server.url}scan.json`, { host: 'evil.example' })).status).toBe(403);
    } finally {
      await server.close();
    }
    const callsAtClose = calls;
    await sleep(400);
    expect(calls).toBe(callsAtClose); // no scan starts after close
  });

  it('keeps serving the previous scan and reports the error when a scan fails', async () => {
    let calls = 0;
    const server = await serveRadar({
      intervalMs: 100,
      scan: async () => {
        calls += 1;
        if (calls > 1) throw new Error('git fetch timed out');
        return { scan: scanOf([{ id: 'a', at: [0, 0, 0] }], files), ownship: null };
      },
    });
    try {
      let state = JSON.parse((await get(`${server.url}scan.json`)).body) as LiveScan;
      for (let i = 0; i < 50 && !state.error; i++) {
        await sleep(100);
        state = JSON.parse((await get(`${server.url}scan.json`)).body) as LiveScan;
      }
      expect(state.seq).toBe(1);
      expect(state.error).toBe('git fetch timed out');
      expect(Object.keys(state.scan?.positions ?? {})).toEqual(['a']);
    } finally {
      await server.close();
    }
  });

  it('refuses a bad port or interval with a usage error', async () => {
    const scan = async () => ({ scan: scanOf([], files), ownship: null });
    await expect(serveRadar({ port: 70000, scan })).rejects.toMatchObject({ kind: 'usage', code: 'radar-bad-port' });
    await expect(serveRadar({ intervalMs: 5, scan })).rejects.toMatchObject({ kind: 'usage', code: 'radar-bad-interval' });
  });
});
