/** Sentences of the contact-only scan (src/run/contact-symbols.ts, src/run/run-airspace.ts). */
export const scaleMessages = {
  /** Said in the report whenever a scan left pairs without contact out of the symbol channel. */
  symbolsSkipped: (pairs: number) =>
    `symbol channel: ${pairs} pair${pairs === 1 ? '' : 's'} with no shared path not parsed (scan does not see a removed export used through an import; the hooks and check compare every pair)`,
};
