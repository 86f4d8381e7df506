// Loaded with `node --import` by the bench: on exit, write this process's peak RSS (KiB) to the
// file named by AIRSPACE_BENCH_RSS_OUT. Adds nothing else to the measured process.
import { writeFileSync } from 'node:fs';

const out = process.env.AIRSPACE_BENCH_RSS_OUT;
if (out) process.on('exit', () => writeFileSync(out, String(process.resourceUsage().maxRSS)));
