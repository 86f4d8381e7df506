/**
 * The shape of the merge-scenario dataset (passed to `bench/accuracy.mjs --data`; docs/decisions/calibration.md), only the
 * fields the evaluation reads. Times are unix SECONDS in the data; the adapter converts them.
 */
import type { WorkingSetFile } from '../../src/traffic/working-set.js';

/**
 * One entry of `sideA.files` / a snapshot's `files`: the product's working-set entry (half-open
 * `[start, end)` base ranges), except that its time is in unix seconds.
 */
export interface DataFile extends Pick<WorkingSetFile, 'file' | 'path' | 'status' | 'ranges' | 'whole'> {
  readonly collapsed?: boolean;
  /** Unix seconds (snapshots only; the final state's come from `*.recency.jsonl`). */
  readonly lastEditTime?: number | null;
}

export type DataBinaryFile = Pick<DataFile, 'file' | 'path' | 'status' | 'lastEditTime'>;

export interface DataSide {
  readonly files: readonly DataFile[];
  readonly binaryFiles: readonly DataBinaryFile[];
  readonly commits?: number;
  readonly firstCommitTime?: number | null;
  readonly lastCommitTime?: number | null;
}

/** `depGraph`: nodes + index edges `[i, j]` (nodes[i] imports nodes[j]) or `[i, j, 1]` (type-only). */
export interface DataDepGraph {
  readonly nodes: readonly string[];
  readonly edges: readonly (readonly number[])[];
  readonly changedInGraph?: readonly string[];
}

export interface DataScenario {
  readonly repo: string;
  readonly merge: string;
  readonly mergeTime: number;
  readonly mergeKind: string;
  readonly multipleBases: boolean;
  readonly sideA: DataSide;
  readonly sideB: DataSide;
  readonly label_conflict: boolean;
  readonly conflictFiles?: readonly string[];
  /** Conflicting merges: files the resolver edited outside the conflicted ones (null when clean). */
  readonly resolutionExtraFiles?: readonly { readonly file: string; readonly added?: number; readonly deleted?: number }[] | null;
  readonly sharedFiles?: number;
  readonly depGraph: DataDepGraph | null;
}

/** A side at a cut: `prefix` null = the side was empty at `t`. */
export interface DataSnapshotSide extends DataSide {
  readonly prefix: string | null;
}

export interface DataSnapshot {
  readonly t: number;
  readonly sideA: DataSnapshotSide;
  readonly sideB: DataSnapshotSide;
}

export interface DataPrefix {
  readonly merge: string;
  readonly repo: string;
  readonly snapshots: Readonly<Record<string, DataSnapshot>>;
  readonly overlapSnapshots: Readonly<Record<string, DataSnapshot>>;
}

export interface DataRecency {
  readonly merge: string;
  readonly repo: string;
  readonly sideA: Readonly<Record<string, number | null>>;
  readonly sideB: Readonly<Record<string, number | null>>;
}

/** One scenario with its earlier moments and final-state recency joined in. */
export interface JoinedScenario {
  readonly scenario: DataScenario;
  readonly prefix: DataPrefix | null;
  readonly recency: DataRecency | null;
}

/** Which state of the two sides is scored: the final one or a cut on one of the two axes. */
export type MomentId = 'final' | `both-${string}` | `life-${string}`;
