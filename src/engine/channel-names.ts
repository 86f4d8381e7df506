/**
 * The channel names, written out once. The engine computes its own channels; `merge` (git
 * merge-tree, src/git/merge-tree-channel.ts) and `symbol` (src/symbols/) are computed outside and arrives as options.external.
 * Config, CLI and evaluation take their lists from here.
 */
export const ENGINE_CHANNELS = ['overlap', 'proximity', 'dependency', 'tree', 'breadth'] as const;
export const EXTERNAL_CHANNELS = ['merge', 'symbol'] as const;
/** Every channel the product knows, in the order the config and reports list them. */
export const PRODUCT_CHANNELS = ['overlap', 'proximity', 'breadth', 'dependency', 'tree', 'merge', 'symbol'] as const satisfies readonly (
  | (typeof ENGINE_CHANNELS)[number]
  | (typeof EXTERNAL_CHANNELS)[number]
)[];
