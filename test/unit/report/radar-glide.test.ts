import * as THREE from 'three';
import { describe, expect, it } from 'vitest';
import { computeLayout } from '../../../src/report/radar-client/layout.js';
import { SceneContent } from '../../../src/report/radar-client/scene-content.js';
import { fileCloud, scanOf } from '../../e2e/radar-fixture.js';

/**
 * The live radar re-applies every poll (every few hundred ms). An update that moves nobody must not
 * restart the agents' glide, or the picture never settles (the browser test waits for it).
 */
describe('radar scene glide', () => {
  const files = fileCloud(10);
  const first = scanOf(
    [
      { id: 'left', at: [-3, 0, 0] },
      { id: 'right', at: [3, 0, 0] },
    ],
    files,
  );
  const moved = scanOf(
    [
      { id: 'left', at: [-1, 0, 0] },
      { id: 'right', at: [1, 0, 0] },
    ],
    files,
  );
  const layout = computeLayout([first, moved]);

  it('the same scan again keeps a settled scene settled; a move starts a glide that ends', () => {
    const content = new SceneContent(new THREE.Texture());
    content.apply(first, layout, 0, true);
    content.tick(10_000);
    expect(content.settled).toBe(true);

    content.apply(first, layout, 10_100, true);
    expect(content.settled).toBe(true);

    content.apply(moved, layout, 10_200, true);
    expect(content.settled).toBe(false);
    // Polled again mid-glide with the same scan: the glide goes on from where it started.
    content.apply(moved, layout, 10_400, true);
    content.tick(10_200 + 5_000);
    expect(content.settled).toBe(true);
  });
});
