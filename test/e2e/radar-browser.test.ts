import { afterAll, beforeAll, describe, type ExpectStatic, it, type TestContext } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { ScanResult } from '../../src/engine/types.js';
import { renderRadarHtml } from '../../src/report/radar-html.js';
import { serveRadar } from '../../src/report/radar-server.js';
import { scanAirspace } from '../../src/engine/index.js';
import { cssColor, LEVEL_COLOR, SYMBOL_COLOR } from '../../src/report/radar-client/colors.js';
import { computeLayout, toScene } from '../../src/report/radar-client/layout.js';
import { segmentHitsBox } from '../../src/report/radar-client/place-labels.js';
import { HOSTILE_AGENT, HOSTILE_FILE, HOSTILE_PATH, fileCloud, generatedAirspace, scanOf, storyScans, symbolScan, vueLikeAirspace } from './radar-fixture.js';
import type { RadarState } from '../../src/report/radar-client/main.js';

const SYMBOL_CSS = cssColor(SYMBOL_COLOR);
const RA_CSS = cssColor(LEVEL_COLOR.RA);

const CHROMIUM = '/usr/bin/chromium';
// In CI the browser test must run (.ci/run installs chromium); locally it may be skipped without it.
const skip = !existsSync(CHROMIUM) && !process.env.CI;
const ROOT = join(import.meta.dirname, '..', '..');
const OUT = mkdtempSync(join(tmpdir(), 'airspace-radar-'));
/**
 * Screenshots are for a human, and encoding a PNG of the page costs chromium's software renderer
 * CPU: the file takes them only when a test fails (into OUT, path printed) or when
 * `AIRSPACE_RADAR_SCREENSHOTS=<dir>` asks for every one of them.
 */
const SHOTS = process.env.AIRSPACE_RADAR_SCREENSHOTS;
/**
 * A reader's laptop window: 48 % of the pixels of the former 1400×860, which chromium's software
 * renderer pays for in every frame, MSAA resolve and composite. The checks keep wide margins here
 * (measured at 960×600 against 1400×860: 651 against 1,373 RA-red pixels for > 50; 25 dashes for ≥ 4;
 * 401 of 401 samples on the solid link for > 200; a 117 KB screenshot for > 20 KB).
 */
const VIEWPORT = { width: 960, height: 600 };

/**
 * One tab for the whole file, as a reader keeps one open and loads page after page in it: a new
 * tab costs chromium a renderer process and a fresh compile of the three.js bundle (≈ 2.5 s of CPU
 * in the software renderer, measured per page). Each test navigates it to its own page (a new
 * document: nothing of the last page's state survives) and gets the console and page errors of
 * that page only. `motion: 'reduce'` emulates a reader who asked for reduced motion (agents placed
 * at once, no pulse): the tests not about the glide use it, so chromium's software renderer does
 * not draw frames they do not look at.
 */
class Tab {
  private errors: string[] = [];
  private constructor(readonly page: Page) {
    page.on('console', (message) => {
      if (message.type() === 'error') this.errors.push(message.text());
    });
    page.on('pageerror', (error) => this.errors.push(error.message));
  }

  static async create(browser: Browser): Promise<Tab> {
    return new Tab(await browser.newPage({ viewport: VIEWPORT }));
  }

  /** Loads `url`; a failing test leaves a screenshot of the page as it was (path printed). */
  async open(url: string, motion: 'reduce' | 'no-preference', context: TestContext): Promise<{ page: Page; errors: string[] }> {
    const errors: string[] = [];
    this.errors = errors;
    // Where a new tab's pointer starts, over no canvas: no hover is carried over from the last test.
    await this.page.mouse.move(0, 0);
    context.onTestFailed(async () => {
      const path = join(OUT, `failed-${context.task.name.slice(0, 40).replace(/[^a-z0-9]+/gi, '-')}.png`);
      await this.page.screenshot({ path, timeout: 10_000 }).then(
        () => console.error(`radar page at the failure: ${path}`),
        (error: Error) => console.error(`no screenshot of the failure: ${error.message}`),
      );
    });
    await this.page.emulateMedia({ reducedMotion: motion });
    await this.page.goto(url);
    await this.page.waitForFunction(() => window.__radar !== undefined, null, { timeout: 15_000 });
    return { page: this.page, errors };
  }
}

/** A screenshot for a human (`taken`, or one taken now), only when AIRSPACE_RADAR_SCREENSHOTS names a directory. */
async function shotIfAsked(page: Page, name: string, taken?: Buffer): Promise<void> {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  writeFileSync(join(SHOTS, name), taken ?? (await page.screenshot()));
}

const state = (page: Page): Promise<RadarState> => page.evaluate(() => window.__radar as RadarState);

/** Waits until the page has rendered `frame` with every agent at its place (the glide is over). */
const settledOn = (page: Page, frame: number): Promise<unknown> =>
  page.waitForFunction((wanted) => window.__radar?.frame === wanted && window.__radar.settled, frame, { timeout: 15_000 });

/** The frames drawn once the page has stopped drawing (no frame drawn over three animation frames). */
const idleRenders = (page: Page): Promise<number> =>
  page.evaluate(async () => {
    const frames = async (n: number) => {
      for (let i = 0; i < n; i++) await new Promise((resolve) => requestAnimationFrame(resolve));
    };
    for (;;) {
      const before = window.__radar!.renders;
      await frames(3);
      if (window.__radar!.renders === before) return before;
    }
  });

/** The page's state after `n` more animation frames have passed (whether or not it drew them). */
const stateAfterFrames = (page: Page, n: number): Promise<RadarState> =>
  page.evaluate(async (count) => {
    for (let i = 0; i < count; i++) await new Promise((resolve) => requestAnimationFrame(resolve));
    return window.__radar as RadarState;
  }, n);

type Point = { x: number; y: number };
type Segment = { from: Point; to: Point; color: string };

/**
 * What the canvas shows, read ONCE for the current state: the WebGL canvas keeps its drawing buffer
 * (preserveDrawingBuffer in src/report/radar-client/scene.ts), so it is copied straight into a 2D
 * canvas and read with one getImageData — no PNG encoded and decoded per question. For each
 * segment from `from` to `to` (its middle 60 %, clear of the agents' spheres): how many separate
 * runs of `color` pixels lie along it (a solid line is one run, a dashed one many) and how many
 * samples hit it; and `red`: how many pixels have the RA red, so the test knows an advisory was
 * actually painted.
 */
const readCanvas = (page: Page, segments: readonly Segment[]): Promise<{ along: { runs: number; hits: number }[]; red: number }> =>
  page.evaluate((segments) => {
    const source = document.querySelector('canvas')!;
    const canvas = document.createElement('canvas');
    canvas.width = source.width;
    canvas.height = source.height;
    const ctx = canvas.getContext('2d')!;
    ctx.drawImage(source, 0, 0);
    const { data, width, height } = ctx.getImageData(0, 0, canvas.width, canvas.height);
    const pixel = (px: number, py: number): number[] => {
      if (px < 0 || py < 0 || px >= width || py >= height) return [0, 0, 0];
      const i = (py * width + px) * 4;
      return [data[i]!, data[i + 1]!, data[i + 2]!];
    };
    let red = 0;
    for (let i = 0; i < data.length; i += 4) if (data[i]! > 180 && data[i + 1]! < 110 && data[i + 2]! < 120) red += 1;
    // The canvas may be drawn at a device pixel ratio: screen coordinates scale to it.
    const scale = width / source.getBoundingClientRect().width;
    const along = segments.map(({ from, to, color }) => {
      const want = [1, 3, 5].map((i) => Number.parseInt(color.slice(i, i + 2), 16));
      const near = (x: number, y: number): boolean => {
        // Across the line: a few pixels either side, the line may be antialiased off-centre.
        const dx = -(to.y - from.y);
        const dy = to.x - from.x;
        const length = Math.hypot(dx, dy);
        for (let k = -3; k <= 3; k++) {
          const [r = 0, g = 0, b = 0] = pixel(Math.round((x + (dx / length) * k) * scale), Math.round((y + (dy / length) * k) * scale));
          if (Math.abs(r - want[0]!) < 60 && Math.abs(g - want[1]!) < 60 && Math.abs(b - want[2]!) < 60) return true;
        }
        return false;
      };
      let runs = 0;
      let hits = 0;
      let inside = false;
      const steps = 400;
      for (let i = 0; i <= steps; i++) {
        const t = 0.2 + (0.6 * i) / steps;
        const hit = near(from.x + (to.x - from.x) * t, from.y + (to.y - from.y) * t);
        if (hit) hits += 1;
        if (hit && !inside) runs += 1;
        inside = hit;
      }
      return { runs, hits };
    });
    return { along, red };
  }, segments);

/** The agent's on-screen position, as the page records it on the agent's label. */
async function agentOnScreen(page: Page, id: string): Promise<{ x: number; y: number }> {
  const anchor = await page
    .locator('.agent-label')
    .filter({ hasText: id })
    .first()
    .evaluate((node) => ({ ...(node as HTMLElement).dataset }));
  const x = Number(anchor.x);
  const y = Number(anchor.y);
  if (!Number.isFinite(x) || !Number.isFinite(y)) throw new Error(`no screen position for ${id}`);
  return { x, y };
}

function expectDrawn(expect: ExpectStatic, actual: RadarState, scan: ScanResult): void {
  const expected = { agents: Object.keys(scan.positions).length, links: scan.links.length, files: Object.keys(scan.fileCoordinates).length };
  expect(actual).toMatchObject({ ...expected, advisories: scan.advisories.length });
  expect(actual.drawn).toEqual({ agentPoints: expected.agents, linkLines: expected.links, filePoints: expected.files });
}

// One page at a time: four pages loading at once in the software renderer timed out page.goto
// (30 s) at load average 25. Each test uses its context's `expect`, so they can run concurrently
// where that is stable.
describe.skipIf(skip)('radar page in a real browser', () => {
  let browser: Browser;
  let tab: Tab;
  beforeAll(async () => {
    if (!existsSync(join(ROOT, 'dist', 'report', 'radar-client.js'))) execFileSync(process.execPath, [join(ROOT, 'scripts', 'bundle-radar.mjs')]);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      // Headless chromium without a GPU renders WebGL through SwiftShader.
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--use-angle=swiftshader',
        '--enable-unsafe-swiftshader',
      ],
    });
    tab = await Tab.create(browser);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('draws every agent, link and file of each story step, shows details, and stays inert to hostile names', async (context) => {
    const { expect } = context;
    const scans = storyScans();
    const frames = scans.map((scan, i) => ({
      title: ['Far apart', 'Two converge', 'Collision imminent'][i]!,
      at: Date.UTC(2026, 0, 1, 12, i),
      scan,
      notes: [`step ${i + 1}`],
    }));
    const file = join(OUT, 'radar.html');
    writeFileSync(file, renderRadarHtml(frames, { title: 'airspace radar' }));
    const { page, errors } = await tab.open(pathToFileURL(file).href, 'reduce', context);

    expectDrawn(expect, await state(page), scans[0]!);
    expect(await state(page)).toMatchObject({ frame: 0, frames: 3, live: false });
    // Hostile names are text, never markup.
    await expect(page.locator('.agent-label').filter({ hasText: HOSTILE_AGENT }).count()).resolves.toBe(1);
    expect(await page.evaluate(() => ({ pwned: (window as { __pwned?: number }).__pwned, imgs: document.images.length }))).toEqual({
      pwned: undefined,
      imgs: 0,
    });

    const idle = await idleRenders(page);
    await page.click('button.next');
    // Reduced motion: the first frame drawn after the change shows every agent in place, no glide
    // (a glide is 700 ms of frames).
    await settledOn(page, 1);
    expect((await state(page)).renders - idle, 'frames drawn for the step').toBe(1);
    expectDrawn(expect, await state(page), scans[1]!);
    expect((await state(page)).frame).toBe(1);
    await expect(page.locator('.frame-title').textContent()).resolves.toBe('Two converge');

    // Hover an agent: the panel lists its links.
    const alpha = await agentOnScreen(page, 'agent/alpha');
    await page.mouse.move(alpha.x, alpha.y);
    await expect(page.locator('.panel .pair').textContent()).resolves.toBe('agent/alpha');
    // Click the alpha–bravo link (TA in this step): channels, driver and overlapping files with ranges.
    const bravo = await agentOnScreen(page, 'agent/bravo');
    await page.mouse.click(alpha.x + (bravo.x - alpha.x) * 0.35, alpha.y + (bravo.y - alpha.y) * 0.35);
    await expect(page.locator('.panel .pair').textContent()).resolves.toBe('agent/alpha ↔ agent/bravo');
    const panel = await page.locator('.panel').innerText();
    expect(panel).toContain('TA');
    expect(panel).toContain('overlap');
    expect(panel).toContain('10–24, 40');
    await expect(page.locator('.panel .files .path').allTextContents()).resolves.toEqual(['src/engine/file-0.ts', HOSTILE_PATH.replace('\u2028', '\\u2028')]);

    await page.locator('input.slider').fill('2');
    await settledOn(page, 2);
    expectDrawn(expect, await state(page), scans[2]!);
    const pinned = await page.locator('.panel').innerText(); // the pinned link follows the step
    expect(pinned).toContain('RA');
    expect(pinned).toMatch(/agent\/alpha\s+holds course/);
    expect(pinned).toMatch(/agent\/bravo\s+must steer/);
    expect((await readCanvas(page, [])).red).toBeGreaterThan(50);

    // The page as a reader's screenshot shows it (canvas, labels and cards composited), in memory.
    const shot = await page.screenshot();
    expect(shot.length).toBeGreaterThan(20_000);
    await shotIfAsked(page, 'radar-step-3.png', shot);
    expect(errors).toEqual([]);
  });

  it('draws what the real engine returns for a generated airspace, and stops drawing once settled until something changes', async (context) => {
    const { expect } = context;
    const { agents, graph } = generatedAirspace();
    const scan = scanAirspace(agents, graph, { now: Date.UTC(2026, 0, 1) });
    const file = join(OUT, 'radar-engine.html');
    writeFileSync(file, renderRadarHtml({ title: 'generated airspace', at: Date.UTC(2026, 0, 1), scan }));
    const { page, errors } = await tab.open(pathToFileURL(file).href, 'reduce', context);
    expectDrawn(expect, await state(page), scan);
    expect((await state(page)).agents).toBe(5);
    await settledOn(page, 0);
    // Idle: over several animation frames the settled page draws nothing more...
    const idle = await idleRenders(page);
    expect(idle).toBeGreaterThan(0);
    expect((await stateAfterFrames(page, 6)).renders).toBe(idle);
    // ...and a change (here the pointer moving over the scene) draws again.
    await page.mouse.move(VIEWPORT.width / 2, VIEWPORT.height / 2);
    await page.waitForFunction((before) => (window.__radar?.renders ?? 0) > before, idle, { timeout: 15_000 });
    await shotIfAsked(page, 'radar-engine.png');
    expect(errors).toEqual([]);
  });

  it('draws a symbol link dashed in its own colour, unlike an ordinary link of the same level', async (context) => {
    const { expect } = context;
    const scan = symbolScan();
    const file = join(OUT, 'radar-symbol.html');
    writeFileSync(file, renderRadarHtml({ title: 'symbol link', at: Date.UTC(2026, 0, 1), scan }));
    const { page, errors } = await tab.open(pathToFileURL(file).href, 'reduce', context);
    await settledOn(page, 0);
    const { linkStyles } = await state(page);
    const symbolLink = linkStyles.find((l) => l.a === 'ada' && l.b === 'bo');
    const plainLink = linkStyles.find((l) => l.a === 'ada' && l.b === 'cy');
    expect(symbolLink).toEqual({ a: 'ada', b: 'bo', color: SYMBOL_CSS, dashed: true });
    expect(plainLink).toEqual({ a: 'ada', b: 'cy', color: RA_CSS, dashed: false });

    // The pixels agree: along the symbol link, many short violet runs (dashes); along the ordinary
    // RA link, one red run and no violet.
    const [ada, bo, cy] = await Promise.all(['ada', 'bo', 'cy'].map((id) => agentOnScreen(page, id)));
    const {
      along: [dashed, solid, violetOnSolid],
    } = await readCanvas(page, [
      { from: ada!, to: bo!, color: SYMBOL_CSS },
      { from: ada!, to: cy!, color: RA_CSS },
      { from: ada!, to: cy!, color: SYMBOL_CSS },
    ]);
    expect(dashed!.runs, JSON.stringify(dashed)).toBeGreaterThanOrEqual(4);
    expect(solid!.runs).toBe(1);
    expect(solid!.hits).toBeGreaterThan(200);
    expect(violetOnSolid!.hits).toBe(0);

    // The legend names the dashed line, and the panel of the link lists the collision.
    await expect(page.locator('.legend').innerText()).resolves.toContain('symbol collision (dashed)');
    await page.mouse.click(ada!.x + (bo!.x - ada!.x) * 0.4, ada!.y + (bo!.y - ada!.y) * 0.4);
    await expect(page.locator('.panel .pair').textContent()).resolves.toBe('ada ↔ bo');
    await expect(page.locator('.panel').innerText()).resolves.toContain('createSession · removed');
    await shotIfAsked(page, 'radar-symbol.png');
    expect(errors).toEqual([]);
  });

  it('vue core: the colliding pair is drawn apart with a visible RA line, badges name the shared file, the ownship is marked, nothing covers anything', async (context) => {
    const { expect } = context;
    const { scan, ownship } = vueLikeAirspace();
    // The embedding puts the colliding pair on one point: what the page must not draw as one.
    // (in scene units, as drawn before the spreading: the halos are 0.62 wide).
    const layout = computeLayout([scan]);
    const [p, q] = [toScene(layout, scan.positions[ownship]!), toScene(layout, scan.positions['feat/general-helpers']!)];
    expect(Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2])).toBeLessThan(0.3);
    const file = join(OUT, 'radar-vue.html');
    writeFileSync(file, renderRadarHtml({ title: 'fix/shared-general', at: Date.UTC(2026, 0, 1), scan, ownship }));
    const { page, errors } = await tab.open(pathToFileURL(file).href, 'reduce', context);
    await settledOn(page, 0);
    await idleRenders(page);

    // Geometry as the reader sees it: markers (centre, radius with the halo) and every label's box.
    const seen = await page.evaluate(() => {
      const box = (node: Element) => {
        const r = node.getBoundingClientRect();
        return { x: r.left, y: r.top, w: r.width, h: r.height };
      };
      const shown = (node: HTMLElement) => node.style.display !== 'none';
      return {
        markers: Array.from(document.querySelectorAll<HTMLElement>('.agent-label'))
          .filter(shown)
          .map((node) => ({
            id: node.querySelector('.name')?.textContent ?? '',
            x: Number(node.dataset.x),
            y: Number(node.dataset.y),
            r: Number(node.dataset.r),
          })),
        labels: Array.from(document.querySelectorAll<HTMLElement>('.agent-label, .link-label'))
          .filter(shown)
          .map((node) => ({ text: node.textContent ?? '', ...box(node) })),
        cards: Array.from(document.querySelectorAll<HTMLElement>('.card'))
          .filter((node) => !node.hidden)
          .map(box),
        badges: Array.from(document.querySelectorAll<HTMLElement>('.link-label')).map((node) => ({
          level: node.classList.contains('level-RA') ? 'RA' : 'TA',
          files: Array.from(node.querySelectorAll('.file')).map((f) => f.textContent),
        })),
        ownship: Array.from(document.querySelectorAll<HTMLElement>('.agent-label.ownship')).map((node) => node.textContent),
        images: document.images.length,
        pwned: (window as { __pwned?: number }).__pwned,
      };
    });
    const overlap = (a: { x: number; y: number; w: number; h: number }, b: { x: number; y: number; w: number; h: number }): boolean =>
      Math.min(a.x + a.w, b.x + b.w) > Math.max(a.x, b.x) && Math.min(a.y + a.h, b.y + b.h) > Math.max(a.y, b.y);
    const markerBox = (m: { x: number; y: number; r: number }) => ({ x: m.x - m.r, y: m.y - m.r, w: 2 * m.r, h: 2 * m.r });
    expect(seen.markers.map((m) => m.id).sort()).toEqual(Object.keys(scan.positions).sort());
    for (const m of seen.markers) expect(m.r, m.id).toBeGreaterThan(5);

    // No two markers (halos included) touch.
    for (const [i, a] of seen.markers.entries()) {
      for (const b of seen.markers.slice(i + 1)) expect(Math.hypot(a.x - b.x, a.y - b.y), `${a.id} / ${b.id}`).toBeGreaterThan(a.r + b.r);
    }
    // No label covers a marker, another label, or a card of the page.
    for (const [i, label] of seen.labels.entries()) {
      for (const m of seen.markers) expect(overlap(label, markerBox(m)), `${label.text} on ${m.id}`).toBe(false);
      for (const other of seen.labels.slice(i + 1)) expect(overlap(label, other), `${label.text} on ${other.text}`).toBe(false);
      for (const card of seen.cards) expect(overlap(label, card), `${label.text} under a card`).toBe(false);
    }

    // The RA line between the pair has length outside both halos, is painted there, and no label sits on it.
    const at = (id: string) => seen.markers.find((m) => m.id === id)!;
    const [mine, theirs] = [at(ownship), at('feat/general-helpers')];
    const visibleLength = Math.hypot(mine.x - theirs.x, mine.y - theirs.y) - mine.r - theirs.r;
    expect(visibleLength).toBeGreaterThan(15);
    const ra = { x1: mine.x, y1: mine.y, x2: theirs.x, y2: theirs.y };
    for (const label of seen.labels) expect(segmentHitsBox(ra, label), `${label.text} on the RA line`).toBe(false);
    const {
      along: [line],
    } = await readCanvas(page, [{ from: mine, to: theirs, color: RA_CSS }]);
    expect(line!.hits, JSON.stringify(line)).toBeGreaterThan(300);

    // The badges say which file: the RA badge names general.ts and the hostile file, as text.
    const raBadge = seen.badges.find((b) => b.level === 'RA')!;
    expect(raBadge.files).toEqual(expect.arrayContaining(['packages/shared/src/general.ts']));
    expect(raBadge.files.some((f) => f?.includes('<img src=x'))).toBe(true);
    expect(seen.badges.filter((b) => b.level === 'TA').length).toBeGreaterThanOrEqual(1);
    for (const badge of seen.badges) expect(badge.files.length, JSON.stringify(badge)).toBeGreaterThan(0);
    expect({ images: seen.images, pwned: seen.pwned }).toEqual({ images: 0, pwned: undefined });
    expect(HOSTILE_FILE).toContain('onerror');

    // The ownship: one label marked "you", and the legend says what the diamond is.
    expect(seen.ownship).toEqual([`you${ownship}`]);
    await expect(page.locator('.legend').innerText()).resolves.toContain('you (the agent of this worktree)');
    await shotIfAsked(page, 'radar-vue.png');
    expect(errors).toEqual([]);
  });

  it('follows a served live scan as the agents glide to their new places', async (context) => {
    const { expect } = context;
    const files = fileCloud(30);
    let calls = 0;
    const server = await serveRadar({
      port: 0,
      intervalMs: 200,
      scan: async () => {
        calls += 1;
        const scan =
          calls === 1
            ? scanOf(
                [
                  { id: 'left', at: [-3, 0, 0] },
                  { id: 'right', at: [3, 0, 0] },
                ],
                files,
              )
            : scanOf(
                [
                  { id: 'left', at: [-0.4, 0, 0] },
                  { id: 'right', at: [0.4, 0, 0] },
                  { id: 'newcomer', at: [0, 2, 0] },
                ],
                files,
              );
        // The ownship travels with each scan: the live page marks it as the first page did.
        return { scan, ownship: 'left' };
      },
    });
    try {
      // Full motion: this test keeps proving that the glide ends with every agent in place.
      const { page, errors } = await tab.open(server.url, 'no-preference', context);
      await page.waitForFunction(() => window.__radar?.agents === 3, null, { timeout: 10_000 });
      const live = await state(page);
      expect(live).toMatchObject({ live: true, agents: 3, links: 3, files: 31 });
      expect(live.updates).toBeGreaterThanOrEqual(1);
      expect(live.drawn).toEqual({ agentPoints: 3, linkLines: 3, filePoints: 31 });
      await expect(page.locator('.agent-label').filter({ hasText: 'newcomer' }).count()).resolves.toBe(1);
      await expect(page.locator('.agent-label.ownship .name').allTextContents()).resolves.toEqual(['left']);
      await expect(page.locator('.status').textContent()).resolves.toBe('live');
      await page.waitForFunction(() => window.__radar?.agents === 3 && window.__radar.settled, null, { timeout: 10_000 });
      await shotIfAsked(page, 'radar-live.png');
      expect(errors).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
