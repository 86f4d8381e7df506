/**
 * Wording of the radar: the errors of the report layer and every label the browser page shows.
 * Pure data (no Node built-ins): the browser bundle imports this module too.
 */

export const radarErrors = {
  bundleMissing: (tried: readonly string[]): string => `The radar page script is missing (looked in ${tried.join(', ')}); run \`npm run build\` first.`,
  noFrames: (): string => 'The radar needs at least one scan to draw.',
  badPort: (port: number): string => `Port ${port} is not a valid TCP port (0–65535).`,
  badInterval: (ms: number): string => `The radar refresh interval must be at least 100 ms (got ${ms}).`,
  listenFailed: (host: string, port: number, reason: string): string => `The radar server could not listen on ${host}:${port}: ${reason}`,
} as const;

/** Labels of the browser page. Names and paths are never part of these: the page sets them as text. */
export const radarPageText = {
  heading: 'airspace radar',
  legendTitle: 'Legend',
  legendClear: 'clear',
  legendTA: 'Traffic Advisory',
  legendRA: 'Resolution Advisory',
  legendSymbol: 'symbol collision (dashed)',
  legendAgent: 'agent',
  legendFile: 'file',
  countAgents: 'agents',
  countPairs: 'pairs',
  countFiles: 'files',
  prev: '◀ prev',
  next: 'next ▶',
  step: 'step',
  hint: 'Drag to rotate, scroll to zoom, right-drag to pan. Hover or click an agent or a link.',
  panelEmpty: 'Hover or click an agent or a link to see the details.',
  risk: 'risk',
  distance: 'distance',
  level: 'level',
  driver: 'driver',
  channels: 'channels',
  unknown: 'unknown',
  sharedFiles: 'overlapping files',
  symbols: "symbols (one side changed what the other side's new code uses)",
  noSharedFiles: 'no shared files (the risk comes from other channels)',
  overlap: 'overlap',
  gap: 'gap',
  lines: 'lines',
  wholeFile: 'whole file',
  hold: 'holds course',
  steer: 'must steer',
  closureRate: 'closure rate',
  escalated: 'escalated early: the pair is closing in',
  position: 'position',
  agentLinks: 'links',
  noLinks: 'no links',
  live: 'live',
  liveWaiting: 'live: waiting for the next scan…',
  liveFailed: 'live: the last scan failed — showing the previous one',
  liveLost: 'live: the server does not answer',
  updatedAt: 'scanned',
} as const;
