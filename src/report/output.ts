import { colorEnabled, createStyle, type Style } from './terminal-style.js';

/** Where the CLI writes. Injectable so tests and the demo can capture output. */
export interface Output {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  readonly style: Style;
  readonly errStyle: Style;
  /** Progress only on a terminal, on stderr, overwritten in place. */
  readonly progress: (text: string) => void;
}

export function processOutput(): Output {
  const errTty = process.stderr.isTTY === true;
  let lastProgress = false;
  const clear = () => {
    if (lastProgress) process.stderr.write('\r\x1b[2K');
    lastProgress = false;
  };
  return {
    out: (text) => {
      clear();
      process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
    },
    err: (text) => {
      clear();
      process.stderr.write(text.endsWith('\n') ? text : `${text}\n`);
    },
    style: createStyle(colorEnabled(process.stdout)),
    errStyle: createStyle(colorEnabled(process.stderr)),
    progress: (text) => {
      if (!errTty || process.env.CI) return;
      process.stderr.write(`\r\x1b[2K${text.slice(0, (process.stderr.columns ?? 80) - 1)}`);
      lastProgress = true;
    },
  };
}
