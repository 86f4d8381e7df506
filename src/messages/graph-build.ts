/**
 * Sentences about the background import-graph build (src/graph/request-graph-build.ts): the
 * status line a hook, `check` and `doctor` print while the dependency channel waits for it.
 */
import type { GraphBuildStatus } from '../graph/graph-build-status.js';

const thousands = (n: number): string => n.toLocaleString('en-US');

export const graphBuildMessages = {
  status: (status: GraphBuildStatus, hasGraph: boolean): string => {
    const channel = hasGraph
      ? 'the dependency channel uses the previous graph until then'
      : 'dependency: not ready; overlap, proximity and merge are checked now';
    if (status.state === 'building') {
      const where = status.total > 0 ? `${thousands(status.done)} of ${thousands(status.total)} files` : 'starting';
      return `import graph: building in the background, ${where}; ${channel}`;
    }
    if (status.state === 'failed') return `import graph: the last background build failed (${status.error}); run \`airspace-hooks graph build\` to see why`;
    return hasGraph ? 'import graph: ready' : 'import graph: not built yet; run `airspace-hooks graph build`';
  },
  built: (files: number, ms: number): string => `import graph: ${thousands(files)} files read in ${thousands(Math.round(ms))} ms`,
  alreadyBuilding: (pid: number): string => `import graph: a build is already running (pid ${pid}); its progress: \`airspace-hooks doctor\``,
} as const;
