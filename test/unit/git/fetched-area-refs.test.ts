import { describe, expect, it } from 'vitest';
import { localAreaRef, localAreaRefs, remoteAreaRef } from '../../../src/git/fetched-area-refs.js';

const key = '0123456789ab';

describe('the local names of fetched area beacons', () => {
  it('keeps one directory per area: `<clone>.<agent>`, and maps back to the remote name', () => {
    const remote = `refs/airspace/areas/${key}/a40e4314b9/feature%2Fx`;
    expect(localAreaRef(remote)).toBe(`refs/airspace/remote/areas/${key}/a40e4314b9.feature%2Fx`);
    expect(remoteAreaRef(`refs/airspace/remote/areas/${key}/a40e4314b9.feature%2Fx`)).toBe(remote);
    // An older release's layout maps to the same remote ref, and is among the names to delete.
    expect(remoteAreaRef(`refs/airspace/remote/areas/${key}/a40e4314b9/feature%2Fx`)).toBe(remote);
    expect(localAreaRefs(remote)).toEqual([
      `refs/airspace/remote/areas/${key}/a40e4314b9.feature%2Fx`,
      `refs/airspace/remote/areas/${key}/a40e4314b9/feature%2Fx`,
    ]);
  });

  it('keeps an older publisher’s one-component ref as it is', () => {
    expect(localAreaRef(`refs/airspace/areas/${key}/feature%2Fx`)).toBe(`refs/airspace/remote/areas/${key}/feature%2Fx`);
    expect(localAreaRefs(`refs/airspace/areas/${key}/feature%2Fx`)).toEqual([`refs/airspace/remote/areas/${key}/feature%2Fx`]);
    expect(remoteAreaRef(`refs/airspace/remote/areas/${key}/feature%2Fx`)).toBe(`refs/airspace/areas/${key}/feature%2Fx`);
  });

  it('refuses remote names no publisher writes: two flat names could not be told apart', () => {
    // `<clone>.<agent>` on the remote would pose as `<clone>/<agent>` here.
    expect(localAreaRef(`refs/airspace/areas/${key}/a40e4314b9.x`)).toBeNull();
    expect(localAreaRef(`refs/airspace/areas/${key}/a40e4314b9/x/y`)).toBeNull();
    expect(localAreaRef(`refs/airspace/areas/not-a-key/a40e4314b9/x`)).toBeNull();
    expect(localAreaRef(`refs/airspace/areas/${key}/a40e4314b9/x.lock`)).toBeNull();
    expect(localAreaRef(`refs/airspace/beacons/a40e4314b9/x`)).toBeNull();
    expect(remoteAreaRef(`refs/airspace/remote/beacons/a40e4314b9/x`)).toBeNull();
  });
});
