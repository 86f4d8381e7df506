/** Sentences of the contact-only scan (src/run/contact-symbols.ts, src/run/run-airspace.ts). */
export const scaleMessages = {
  /** Progress line while the symbol channel runs on the pairs with contact. */
  symbolsOnContacts: (pairs: number) => `symbol channel: ${pairs} pair${pairs === 1 ? '' : 's'} with contact…`,
  /** Said in the report whenever a scan left pairs without contact out of the symbol channel. */
  symbolsSkipped: (pairs: number) =>
    `symbol channel: ${pairs} pair${pairs === 1 ? '' : 's'} without a shared path or import-graph contact not parsed (a brand-new import between unconnected files is not seen by scan; the hooks check every pair)`,
};
