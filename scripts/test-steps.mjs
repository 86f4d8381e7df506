/** The house checks `npm test` and `npm run check` run, split by whether they read dist/. */
export const CHECKS_WITHOUT_BUILD = ['typecheck:src', 'lint', 'knip', 'lint:layers'];
/** bench/*.mjs and scripts/*.mjs are type-checked against the built API in dist/. */
export const CHECKS_NEEDING_BUILD = ['typecheck:bench'];
