import pc from 'picocolors';

/** Colour only on a terminal, and never when NO_COLOR is set (https://no-color.org). */
export function colorEnabled(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== '') return true;
  return stream.isTTY === true && env.TERM !== 'dumb';
}

export type Style = ReturnType<typeof pc.createColors>;

export function createStyle(enabled: boolean): Style {
  return pc.createColors(enabled);
}
