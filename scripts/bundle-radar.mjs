#!/usr/bin/env node
/**
 * Bundles the radar's browser client (src/report/radar-client/main.ts + three.js + its CSS) into
 * dist/report/radar-client.js and dist/report/radar-client.css. renderRadarHtml inlines both into
 * the page at render time, so the HTML file works offline. Runs in `npm run build:js`, after scripts/transpile.mjs.
 */
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(root, 'dist', 'report');
mkdirSync(outdir, { recursive: true });

await build({
  absWorkingDir: root,
  entryPoints: { 'radar-client': 'src/report/radar-client/main.ts' },
  outdir,
  bundle: true,
  minify: true,
  format: 'iife',
  platform: 'browser',
  target: ['es2020'],
  legalComments: 'inline',
  charset: 'utf8',
  logLevel: 'warning',
});
