import type { MergeChannelResult } from '../git/merge-tree-channel.js';
import type { SymbolChannelResult } from '../symbols/symbol-channel.js';
import type { PairWorkingSets } from '../traffic/collect-airspace.js';

/** A compared pair with the channels git computes on its two states (src/channels/). */
export interface ChannelledPair extends PairWorkingSets {
  /** Present when the `merge` channel ran on the pair. */
  readonly merge?: MergeChannelResult;
  /** Present when the `symbol` channel ran on the pair. */
  readonly symbol?: SymbolChannelResult;
}

export interface GitChannelContext {
  readonly cwd: string;
  /** True: this path is noise (lockfiles…): a conflict or a collision only there is none. */
  readonly ignore: (path: string) => boolean;
  /** Git processes in flight at once. */
  readonly concurrency: number;
  /**
   * The repository's common git dir, where batched merges keep their scratch objects
   * (src/channels/batched-merges.ts); absent: every pair merges on its own.
   */
  readonly commonDir?: string;
  /** Pairs (by index in the list the channel is given) whose single merge base is proven (proven-merge-base.ts). */
  readonly proven?: ReadonlyMap<number, string>;
}
