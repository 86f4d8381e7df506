/** User-facing text of the accuracy evaluation (bench/src/, bench/accuracy.mjs). */
export const evalMessages = {
  dataMissing: (dir: string) => `merge-scenario data not found at ${dir} (expected dev.jsonl, dev.prefix.jsonl, dev.recency.jsonl; pass --data <dir>)`,
  joinMismatch: (line: number, merge: string, other: string) =>
    `dataset files are out of step at line ${line}: ${merge} vs ${other} (they must be in the same order)`,
  badLine: (file: string, line: number) => `cannot parse ${file} line ${line} as JSON`,
} as const;
