/** The house checks besides the type check: they read only the sources. */
export const CHECKS_BESIDE_TYPES = ['lint', 'knip', 'lint:layers'];
/** The house checks `npm run check` runs, split by whether they read dist/. */
export const CHECKS_WITHOUT_BUILD = ['typecheck:src', ...CHECKS_BESIDE_TYPES];
/** bench/*.mjs and scripts/*.mjs are type-checked against the built API in dist/. */
export const CHECKS_NEEDING_BUILD = ['typecheck:bench'];
