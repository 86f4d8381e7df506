import { describe, expect, it } from 'vitest';
import { mergeBeaconIntoWorkingSet, unionRanges } from '../../../src/beacon/merge-beacon.js';
import type { WorkingSet } from '../../../src/traffic/working-set.js';
import { makeBeacon, SHA_A, SHA_B } from './beacon-fixture.js';

const branch: WorkingSet = {
  base: SHA_B,
  files: [
    { file: 'src/auth.ts', status: 'M', ranges: [[12, 20]], origin: 'committed', lastEditTime: 100 },
    { file: 'src/other.ts', status: 'M', ranges: [[1, 3]], origin: 'committed' },
  ],
};

describe('unionRanges', () => {
  it('fuses overlapping and touching ranges, keeps gaps, absorbs inner insertions', () => {
    expect(
      unionRanges([
        [10, 14],
        [12, 20],
        [20, 22],
        [30, 31],
        [31, 31],
        [50, 50],
      ]),
    ).toEqual([
      [10, 22],
      [30, 31],
      [50, 50],
    ]);
  });
});

describe('mergeBeaconIntoWorkingSet', () => {
  it('merges per file on the same base without double counting', () => {
    const { workingSet, mode, added } = mergeBeaconIntoWorkingSet(branch, makeBeacon());
    expect(mode).toBe('same-base');
    expect(added).toBe(1);
    expect(workingSet.files).toHaveLength(3);
    const auth = workingSet.files.find((f) => f.file === 'src/auth.ts');
    expect(auth?.ranges).toEqual([
      [10, 20],
      [40, 41],
    ]);
    expect(auth?.origin).toBe('uncommitted');
    expect(workingSet.files.find((f) => f.file === 'src/other.ts')).toEqual(branch.files[1]);
    expect(workingSet.files.find((f) => f.file === 'docs/new.md')).toMatchObject({ whole: true, origin: 'committed' });
  });

  it('a whole-file edit on either side makes the merged file whole', () => {
    const beacon = makeBeacon({ workingSet: { base: SHA_B, files: [{ file: 'src/other.ts', status: 'M', binary: true }] } });
    const merged = mergeBeaconIntoWorkingSet(branch, beacon).workingSet.files.find((f) => f.file === 'src/other.ts');
    expect(merged).toMatchObject({ whole: true, binary: true });
    expect(merged?.ranges).toBeUndefined();
  });

  it('on different bases keeps the branch ranges and adds beacon-only files as whole files', () => {
    const beacon = makeBeacon({
      base: SHA_A,
      workingSet: {
        base: SHA_A,
        files: [
          { file: 'src/other.ts', status: 'M', ranges: [[100, 101]], origin: 'committed' },
          { file: 'src/auth.ts', status: 'M', ranges: [[10, 14]], origin: 'uncommitted' },
          { file: 'src/new.ts', status: 'M', ranges: [[5, 6]] },
        ],
      },
    });
    const { workingSet, mode, added } = mergeBeaconIntoWorkingSet(branch, beacon);
    expect(mode).toBe('beacon-files-whole');
    expect(added).toBe(1);
    expect(workingSet.base).toBe(SHA_B);
    expect(workingSet.files.find((f) => f.file === 'src/other.ts')).toEqual(branch.files[1]);
    expect(workingSet.files.find((f) => f.file === 'src/auth.ts')).toMatchObject({ whole: true, origin: 'uncommitted' });
    const added1 = workingSet.files.find((f) => f.file === 'src/new.ts');
    expect(added1).toMatchObject({ whole: true, origin: 'beacon' });
    expect(added1?.ranges).toBeUndefined();
  });

  it('an unknown branch base never merges ranges', () => {
    expect(mergeBeaconIntoWorkingSet({ base: null, files: [] }, makeBeacon({ base: null, workingSet: { base: null, files: [] } })).mode).toBe(
      'beacon-files-whole',
    );
  });
});
