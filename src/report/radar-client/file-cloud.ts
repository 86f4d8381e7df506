/**
 * The file cloud: one point per file at its embedding coordinate. Colour says where a file lives
 * (its folder) unless an advisory's two sides both touch it; then it takes the advisory's colour.
 */
import * as THREE from 'three';
import type { AdvisoryLevel, Link, ScanResult } from '../../engine/types.js';
import { LEVEL_COLOR, LEVEL_RANK, folderColor } from './colors.js';
import { type Layout, toScene } from './layout.js';

/** Files both sides of an advisory touch take the advisory's colour; the rest their folder's. */
export function makeFileCloud(
  coordinates: ScanResult['fileCoordinates'],
  layout: Layout,
  hot: ReadonlyMap<string, AdvisoryLevel>,
  pointTexture: THREE.Texture,
): THREE.Points {
  const paths = Object.keys(coordinates);
  const position = new Float32Array(paths.length * 3);
  const color = new Float32Array(paths.length * 3);
  paths.forEach((path, i) => {
    position.set(toScene(layout, coordinates[path]!), i * 3);
    const level = hot.get(path);
    color.set(level ? new THREE.Color(LEVEL_COLOR[level]).toArray() : folderColor(path), i * 3);
  });
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute('position', new THREE.BufferAttribute(position, 3));
  geometry.setAttribute('color', new THREE.BufferAttribute(color, 3));
  const material = new THREE.PointsMaterial({
    size: 0.3,
    map: pointTexture,
    vertexColors: true,
    transparent: true,
    opacity: 0.9,
    depthWrite: false,
    sizeAttenuation: true,
  });
  const points = new THREE.Points(geometry, material);
  points.userData.paths = paths;
  return points;
}

export function hotFiles(links: readonly Link[]): Map<string, AdvisoryLevel> {
  const hot = new Map<string, AdvisoryLevel>();
  for (const link of links) {
    if (link.level === 'clear') continue;
    for (const file of link.sharedFiles) {
      const current = hot.get(file.path);
      if (!current || LEVEL_RANK[link.level] > LEVEL_RANK[current]) hot.set(file.path, link.level);
    }
  }
  return hot;
}
