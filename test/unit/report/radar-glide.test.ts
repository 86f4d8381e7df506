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

  /** Both ends of every link line, and where its agents are. */
  const linkEnds = (content: SceneContent) =>
    content.links.map(({ link, line }) => {
      const start = line.geometry.getAttribute('instanceStart') as THREE.InterleavedBufferAttribute;
      const array = [...start.data.array].slice(0, 6);
      const a = content.agents.get(link.a)!.mesh.position;
      const b = content.agents.get(link.b)!.mesh.position;
      return { ends: array, agents: [a.x, a.y, a.z, b.x, b.y, b.z] };
    });

  it('a change drawn without animation places agents and link ends at once, settled, whatever the next frame time', () => {
    const content = new SceneContent(new THREE.Texture());
    content.apply(first, layout, 0, false);
    content.apply(moved, layout, 100, false);
    expect(content.settled).toBe(true);
    for (const { ends, agents } of linkEnds(content)) for (let i = 0; i < 6; i++) expect(ends[i]).toBeCloseTo(agents[i]!, 6);
    // A frame stamped before the change (rAF time is the frame's start) does not replay a glide.
    content.tick(90);
    expect(content.settled).toBe(true);
  });

  it('reduced motion: an animated change is placed at once and nothing pulses; with motion the page animates, then rests', () => {
    const still = new SceneContent(new THREE.Texture());
    still.motion = false;
    still.apply(first, layout, 0, false);
    still.apply(moved, layout, 100, true);
    expect(still.settled).toBe(true);
    expect(still.animating(101)).toBe(false);

    const moving = new SceneContent(new THREE.Texture());
    moving.apply(first, layout, 0, false);
    moving.apply(moved, layout, 100, true);
    expect(moving.animating(101)).toBe(true);
    moving.tick(100 + 60_000);
    expect(moving.settled).toBe(true);
    // Long after the change: no glide, no pulse, no frame to draw.
    expect(moving.animating(100 + 60_000)).toBe(false);
  });
});
