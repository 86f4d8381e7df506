/** The radar's palette: one colour per advisory level, shared by the scene, the legend and the panel. */
import type { AdvisoryLevel } from '../../engine/types.js';

export const LEVEL_COLOR: Record<AdvisoryLevel, number> = {
  clear: 0x6b7a90,
  TA: 0xffb020,
  RA: 0xff3b4e,
};

export const AGENT_COLOR = 0x4fd1ff;
/** The agent of this worktree (the ownship): white, as TCAS draws its own aircraft. */
export const OWNSHIP_COLOR = 0xffffff;
/** Links whose collision is a symbol (src/symbols/): violet, dashed. */
export const SYMBOL_COLOR = 0xc084fc;
export const BACKGROUND = 0x070b12;
export const GRID_COLOR = 0x1d3b2e;
export const GRID_CENTER_COLOR = 0x2f6b4f;

/** Link width in CSS pixels: advisories stand out, clear pairs stay a faint web. */
export const LEVEL_WIDTH: Record<AdvisoryLevel, number> = { clear: 1, TA: 2.5, RA: 4 };

export function cssColor(hex: number): string {
  return `#${hex.toString(16).padStart(6, '0')}`;
}

export const LEVEL_RANK: Record<AdvisoryLevel, number> = { clear: 0, TA: 1, RA: 2 };

/** A muted hue per folder (two levels deep: `src/engine`), so the file cloud shows the repository's regions. */
export function folderColor(path: string): [number, number, number] {
  const top = path.split('/').slice(0, -1).slice(0, 2).join('/') || '.';
  let hash = 2166136261;
  for (let i = 0; i < top.length; i++) hash = Math.imul(hash ^ top.charCodeAt(i), 16777619);
  const hue = ((hash >>> 0) % 360) / 360;
  return hslToRgb(hue, 0.45, 0.68);
}

function hslToRgb(h: number, s: number, l: number): [number, number, number] {
  const k = (n: number): number => (n + h * 12) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (n: number): number => l - a * Math.max(-1, Math.min(k(n) - 3, Math.min(9 - k(n), 1)));
  return [f(0), f(8), f(4)];
}
