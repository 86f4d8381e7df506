// What the radar page's layout costs in the browser's main thread: spreading collided agents apart
// (once per scan) and placing the names and badges (each frame while the view moves or agents
// glide). Seeded random scenes in a 960 × 600 view, the page's sizes; prints the median of 7 runs.
// The client is browser TypeScript (not in dist/), so it is bundled here in memory with esbuild.
// Run: node bench/radar-layout.mjs
import { build } from 'esbuild';

const source = `
export { besideLink, besideMarker, placeLabels } from './src/report/radar-client/place-labels.ts';
export { spreadApart } from './src/report/radar-client/spread-apart.ts';
export { MIN_AGENT_SEPARATION } from './src/report/radar-client/layout.ts';
`;
const bundled = await build({
  stdin: { contents: source, resolveDir: new URL('..', import.meta.url).pathname, loader: 'ts' },
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  write: false,
  logLevel: 'warning',
});
const { besideLink, besideMarker, placeLabels, spreadApart, MIN_AGENT_SEPARATION } = await import(
  `data:text/javascript;base64,${Buffer.from(bundled.outputFiles[0].text).toString('base64')}`
);

let seed = 1;
const random = () => {
  seed = (seed * 16807) % 2147483647;
  return seed / 2147483647;
};
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
/** Median ms per call of `run`, each sample repeating it for at least 100 ms. */
function perCall(run) {
  const samples = [];
  for (let s = 0; s < 7; s++) {
    const started = performance.now();
    let calls = 0;
    while (performance.now() - started < 100) {
      run();
      calls += 1;
    }
    samples.push((performance.now() - started) / calls);
  }
  return median(samples);
}

// 28 px per scene unit: the page's default view on a 600 px high window.
const PX = 28;
for (const agents of [5, 20, 50]) {
  const markers = Array.from({ length: agents }, () => ({ x: 60 + random() * 840, y: 60 + random() * 480, r: 22 }));
  // A third of them stacked on another (collided pairs), as the embedding draws them.
  for (let i = 1; i < agents; i += 3) markers[i] = { ...markers[i - 1] };
  const points = markers.map((m) => [m.x / PX, m.y / PX]);
  const spreadMs = perCall(() => spreadApart(points, MIN_AGENT_SEPARATION));
  const spread = spreadApart(points, MIN_AGENT_SEPARATION).map(([x, y]) => ({ x: x * PX, y: y * PX, r: 22 }));
  const links = Array.from({ length: Math.ceil(agents / 2) }, (_, i) => [spread[i], spread[(i + 1) % agents]]);
  const boxes = spread.map((m) => ({ x: m.x - m.r, y: m.y - m.r, w: 2 * m.r, h: 2 * m.r }));
  const segments = links.map(([a, b]) => ({ x1: a.x, y1: a.y, x2: b.x, y2: b.y }));
  const requests = [
    ...links.map(([a, b], i) => ({ key: `link:${i}`, w: 200, h: 34, candidates: besideLink([a.x, a.y], [b.x, b.y], 200, 34) })),
    ...spread.map((m, i) => ({ key: `agent:${i}`, w: 130, h: 20, candidates: besideMarker(m.x, m.y, m.r, 130, 20) })),
  ];
  const obstacles = { boxes, segments, bounds: { x: 0, y: 0, w: 960, h: 600 } };
  const placeMs = perCall(() => placeLabels(requests, obstacles));
  const clear = [...placeLabels(requests, obstacles).values()].filter((p) => p.clear).length;
  console.log(
    `${String(agents).padStart(2)} agents, ${String(links.length).padStart(2)} badges: spreadApart ${spreadMs.toFixed(3)} ms per scan, ` +
      `placeLabels ${placeMs.toFixed(3)} ms per frame (${clear}/${requests.length} labels cover nothing)`,
  );
}
