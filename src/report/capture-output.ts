import type { Output } from './output.js';
import { createStyle } from './terminal-style.js';

/** An Output that keeps what a command printed, uncoloured: for callers that are not a terminal. */
export interface CapturedOutput extends Output {
  readonly stdout: () => string;
  readonly stderr: () => string;
}

export function captureOutput(): CapturedOutput {
  const out: string[] = [];
  const err: string[] = [];
  const plain = createStyle(false);
  return {
    out: (text) => out.push(text),
    err: (text) => err.push(text),
    style: plain,
    errStyle: plain,
    progress: () => undefined,
    stdout: () => out.join('\n'),
    stderr: () => err.join('\n'),
  };
}
