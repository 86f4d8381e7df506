// Which modules under src/ the package ships as dist/ modules: all but the radar's browser client,
// which is bundled on its own (scripts/bundle-radar.mjs) and excluded by tsconfig.build.json.
import { join } from 'node:path';

/** `path` relative to src/ (a .ts source or its .d.ts declaration). */
export function isPackageModule(path) {
  return !path.startsWith(join('report', 'radar-client'));
}
