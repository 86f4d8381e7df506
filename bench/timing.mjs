// Timing checks that used to be wall-clock assertions in the unit suite (which must not read the
// clock): interval arithmetic on a five-million-line range, and the terminal sanitizer on 800 kB of
// hostile escape openers. Prints each median; exits 1 when one exceeds its bound, which is ~20x what
// an idle laptop takes, so only an algorithmic regression (per-line work, regex backtracking) trips it.
// Run: npm run bench:smoke (builds first).
import { gapBetween, overlapCoefficient, toSlots, toSpans, totalLength } from '../dist/engine/intervals.js';
import { sanitizeText } from '../dist/report/sanitize-text.js';

const ESC = '\u001b';
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
function time(run, repeats = 5) {
  const samples = [];
  for (let i = 0; i < repeats; i++) {
    const started = performance.now();
    run();
    samples.push(performance.now() - started);
  }
  return median(samples);
}

const checks = [
  {
    name: 'intervals: a 5,000,000-line range (total, overlap, gap)',
    boundMs: 50,
    ms: time(() => {
      const huge = toSlots([[1, 5_000_000]]);
      totalLength(huge);
      overlapCoefficient(huge, toSlots([[4_999_990, 5_000_009]]));
      gapBetween(toSpans([[1, 5_000_000]]), toSpans([[5_000_010, 5_000_010]]));
    }),
  },
  {
    name: 'sanitizeText: 800 kB of ESC[ and ESC] openers',
    boundMs: 1000,
    ms: time(() => sanitizeText(`${ESC}[`.repeat(200_000) + `${ESC}]`.repeat(200_000), { maxLength: 1000 })),
  },
];
let failed = 0;
for (const check of checks) {
  const over = check.ms > check.boundMs;
  if (over) failed++;
  console.log(`${over ? 'SLOW' : 'ok  '} ${check.ms.toFixed(2)} ms (bound ${check.boundMs} ms)  ${check.name}`);
}
process.exit(failed > 0 ? 1 : 0);
