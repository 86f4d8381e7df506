/** Sentences of the contact-only scan (src/run/contact-symbols.ts, src/run/run-airspace.ts). */
export const scaleMessages = {
  /** Said in the report whenever a scan left pairs without contact out of the symbol channel. */
  symbolsSkipped: (pairs: number) =>
    `symbol channel: ${pairs} pair${pairs === 1 ? '' : 's'} with no shared path and no direct import between their files not parsed (a use through a barrel file or a brand-new import is not seen by scan; the hooks check every pair)`,
};
