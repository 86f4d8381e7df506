/**
 * What the radar draws for one scan: the file cloud, the agents and the links. Updated in place:
 * agents are kept by id and glide to their new position, so in live mode you watch them move.
 * The drawn counts come from the objects actually in the scene (the browser test reads them).
 */
import * as THREE from 'three';
import { Line2 } from 'three/examples/jsm/lines/Line2.js';
import { LineGeometry } from 'three/examples/jsm/lines/LineGeometry.js';
import { LineMaterial } from 'three/examples/jsm/lines/LineMaterial.js';
import type { AdvisoryLevel, Link, ScanResult } from '../../engine/types.js';
import type { ReportLink } from '../check-report.js';
import { AGENT_COLOR, LEVEL_COLOR, LEVEL_RANK, LEVEL_WIDTH, OWNSHIP_COLOR, SYMBOL_COLOR, cssColor } from './colors.js';
import { hotFiles, makeFileCloud } from './file-cloud.js';
import { type Layout, agentPlaces } from './layout.js';

export interface AgentView {
  readonly id: string;
  readonly mesh: THREE.Mesh;
  readonly halo: THREE.Mesh;
  from: THREE.Vector3;
  to: THREE.Vector3;
  level: AdvisoryLevel;
  /** The agent of the worktree the radar was run in: drawn as a diamond, in its own colour. */
  ownship: boolean;
}

/** The outer radius of an agent's halo at the height of its pulse: what a label must keep clear of. */
export const MARKER_RADIUS = 0.62 * 1.25;

export interface LinkView {
  readonly link: Link;
  readonly line: Line2;
}

const GLIDE_MS = 700;
/** How long the halos of advisories pulse after a change: a cue to look, then the page rests. */
const PULSE_MS = 4_000;

export class SceneContent {
  readonly root = new THREE.Group();
  readonly agents = new Map<string, AgentView>();
  links: LinkView[] = [];
  private readonly agentGroup = new THREE.Group();
  private readonly linkGroup = new THREE.Group();
  private files: THREE.Points;
  private glideStart = 0;
  private changedAt = -Infinity;
  private moving = false;
  /**
   * False when the reader asked for reduced motion (prefers-reduced-motion): agents are placed at
   * once and halos do not pulse.
   */
  motion = true;
  private readonly sphere = new THREE.SphereGeometry(0.32, 24, 16);
  private readonly diamond = new THREE.OctahedronGeometry(0.46);
  private readonly ring = new THREE.RingGeometry(0.5, 0.62, 40);
  private readonly resolution = new THREE.Vector2(1, 1);

  constructor(private readonly pointTexture: THREE.Texture) {
    this.files = makeFileCloud({}, { center: [0, 0, 0], scale: 1 }, new Map(), this.pointTexture);
    this.root.add(this.files, this.linkGroup, this.agentGroup);
  }

  apply(scan: ScanResult, layout: Layout, now: number, wanted: boolean, ownship: string | null = null): void {
    const animate = wanted && this.motion;
    this.root.remove(this.files);
    this.files.geometry.dispose();
    (this.files.material as THREE.Material).dispose();
    this.files = makeFileCloud(scan.fileCoordinates, layout, hotFiles(scan.links), this.pointTexture);
    this.root.add(this.files);
    // A live update that moves nobody (the same scan again) must not restart the glide: polled every
    // few hundred ms, the agents would never arrive and the page never settle.
    const { moved, levels } = this.applyAgents(scan, layout, animate, ownship);
    // Without animation the glide is already over, whatever the timestamp of the next frame (it may
    // be earlier than `now`): that frame must not replay it, nor report the page unsettled.
    if (moved) this.glideStart = animate ? now : -Infinity;
    // The halos pulse again only when something changed, not at every poll of the same scan.
    if (moved || levels) this.changedAt = now;
    this.applyLinks(scan.links);
    this.tick(now);
    // The link ends follow the agents as this tick placed them: when no glide runs, no later tick
    // moves them (a first frame more than a glide's length away, on a loaded machine, left the
    // lines where the agents were before).
    this.placeLinks();
  }

  /** Moves agents along their glide, keeps link ends on them, pulses the halos of advisories. */
  tick(now: number): void {
    // A frame's timestamp may be a little earlier than the change that started the glide.
    const t = Math.min(1, Math.max(0, (now - this.glideStart) / GLIDE_MS));
    const ease = t * t * (3 - 2 * t);
    for (const view of this.agents.values()) {
      view.mesh.position.lerpVectors(view.from, view.to, ease);
      view.halo.position.copy(view.mesh.position);
      const pulsing = this.pulsing(now);
      const pulse = !pulsing ? 1 : view.level === 'RA' ? 1 + 0.25 * Math.sin(now / 180) : view.level === 'TA' ? 1 + 0.12 * Math.sin(now / 320) : 1;
      view.halo.scale.setScalar(pulse);
    }
    if (t < 1 || this.moving) this.placeLinks();
    this.moving = t < 1;
  }

  /** Whitens the picked agents and widens the picked link; everything else returns to normal. */
  highlight(agentIds: readonly string[], link: Link | null): void {
    for (const view of this.agents.values()) {
      (view.mesh.material as THREE.MeshBasicMaterial).color.setHex(agentIds.includes(view.id) ? 0xffffff : view.ownship ? OWNSHIP_COLOR : AGENT_COLOR);
    }
    for (const view of this.links) {
      const picked = link !== null && view.link.a === link.a && view.link.b === link.b;
      view.line.material.linewidth = (LEVEL_WIDTH[view.link.level] ?? 1) + (picked ? 2.5 : 0);
      view.line.material.opacity = picked ? 1 : view.link.level === 'clear' ? 0.2 + 0.5 * clamp01(view.link.risk) : 0.95;
    }
  }

  setResolution(width: number, height: number): void {
    this.resolution.set(width, height);
    for (const { line } of this.links) line.material.resolution.copy(this.resolution);
  }

  /** Keeps halos facing the camera, so they read as rings around the agents from any angle. */
  faceCamera(camera: THREE.Camera): void {
    for (const view of this.agents.values()) view.halo.quaternion.copy(camera.quaternion);
  }

  /**
   * Whether a frame drawn at `now` differs from the last one: an agent is gliding, or an advisory's
   * halo still pulses. When false the page need not draw again until something changes.
   */
  animating(now: number): boolean {
    if (this.moving) return true;
    return this.pulsing(now) && [...this.agents.values()].some((v) => v.level === 'RA' || v.level === 'TA');
  }

  private pulsing(now: number): boolean {
    return this.motion && now - this.changedAt < PULSE_MS;
  }

  /** True once every agent has reached its place (the last glide is over). */
  get settled(): boolean {
    return !this.moving;
  }

  /** How each link line is actually painted, read from its material (the browser test reads it). */
  get linkStyles(): { a: string; b: string; color: string; dashed: boolean }[] {
    return this.links.map(({ link, line }) => ({ a: link.a, b: link.b, color: cssColor(line.material.color.getHex()), dashed: line.material.dashed }));
  }

  get drawn(): { agentPoints: number; linkLines: number; filePoints: number } {
    return {
      agentPoints: this.agentGroup.children.filter((c) => c.userData.kind === 'agent').length,
      linkLines: this.linkGroup.children.filter((c) => c.userData.kind === 'link').length,
      filePoints: this.files.geometry.getAttribute('position')?.count ?? 0,
    };
  }

  get pickables(): { agents: THREE.Object3D[]; links: THREE.Object3D[] } {
    return { agents: [...this.agents.values()].map((v) => v.mesh), links: this.links.map((v) => v.line) };
  }

  /** Places the agents of `scan`; `moved` when one got a new target (a glide starts), `levels` when one's advisory level changed. */
  private applyAgents(scan: ScanResult, layout: Layout, animate: boolean, ownship: string | null): { moved: boolean; levels: boolean } {
    let levels = false;
    const worst = worstLevels(scan.links);
    for (const [id, view] of this.agents) {
      if (id in scan.positions) continue;
      this.agentGroup.remove(view.mesh, view.halo);
      (view.halo.material as THREE.Material).dispose();
      this.agents.delete(id);
    }
    // Where the agents are drawn: the embedding's places, spread so no two overlap on screen.
    const targets = [...agentPlaces(layout, scan.positions, scan.links)].map(([id, place]) => [id, new THREE.Vector3(...place)] as const);
    const moved = targets.some(([id, target]) => {
      const view = this.agents.get(id);
      return view === undefined || view.to.distanceToSquared(target) > 1e-12;
    });
    for (const [id, target] of targets) {
      const level = worst.get(id) ?? 'clear';
      let view = this.agents.get(id);
      if (!view) {
        const mesh = new THREE.Mesh(this.sphere, new THREE.MeshBasicMaterial({ color: AGENT_COLOR }));
        mesh.userData = { kind: 'agent', id };
        const halo = new THREE.Mesh(this.ring, new THREE.MeshBasicMaterial({ transparent: true, side: THREE.DoubleSide, depthWrite: false }));
        halo.userData = { kind: 'halo', id };
        view = { id, mesh, halo, from: target.clone(), to: target, level, ownship: false };
        this.agents.set(id, view);
        this.agentGroup.add(mesh, halo);
      }
      const isOwnship = id === ownship;
      if (view.ownship !== isOwnship || (view.mesh.geometry === this.diamond) !== isOwnship) {
        view.ownship = isOwnship;
        view.mesh.geometry = isOwnship ? this.diamond : this.sphere;
        view.mesh.userData = { kind: 'agent', id, ...(isOwnship ? { ownship: true } : {}) };
        (view.mesh.material as THREE.MeshBasicMaterial).color.setHex(isOwnship ? OWNSHIP_COLOR : AGENT_COLOR);
      }
      if (moved) {
        view.from = animate ? view.mesh.position.clone() : target.clone();
        view.to = target;
      }
      if (view.level !== level) levels = true;
      view.level = level;
      const haloMaterial = view.halo.material as THREE.MeshBasicMaterial;
      haloMaterial.color.setHex(level === 'clear' ? AGENT_COLOR : LEVEL_COLOR[level]);
      haloMaterial.opacity = level === 'clear' ? 0.25 : 0.9;
    }
    return { moved, levels };
  }

  private applyLinks(links: readonly Link[]): void {
    for (const { line } of this.links) {
      this.linkGroup.remove(line);
      line.geometry.dispose();
      line.material.dispose();
    }
    // Clear pairs first, advisories last: the red and amber lines are drawn on top.
    const ordered = [...links].sort((x, y) => LEVEL_RANK[x.level] - LEVEL_RANK[y.level] || x.risk - y.risk);
    this.links = [];
    for (const link of ordered) {
      if (!this.agents.has(link.a) || !this.agents.has(link.b)) continue;
      // A pair whose collision is a symbol (one side changed what the other's new code uses) is
      // drawn dashed in its own colour: no shared lines, a different kind of conflict.
      const symbolic = ((link as ReportLink).symbols?.length ?? 0) > 0;
      const material = new LineMaterial({
        color: symbolic ? SYMBOL_COLOR : (LEVEL_COLOR[link.level] ?? LEVEL_COLOR.clear),
        linewidth: LEVEL_WIDTH[link.level] ?? 1,
        transparent: true,
        opacity: link.level === 'clear' ? 0.2 + 0.5 * clamp01(link.risk) : 0.95,
        depthWrite: false,
        ...(symbolic ? { dashed: true, dashSize: 0.22, gapSize: 0.14 } : {}),
      });
      material.resolution.copy(this.resolution);
      const line = new Line2(new LineGeometry(), material);
      line.userData = { kind: 'link', a: link.a, b: link.b, ...(symbolic ? { symbol: true } : {}) };
      this.links.push({ link, line });
      this.linkGroup.add(line);
    }
    this.placeLinks();
  }

  private placeLinks(): void {
    for (const { link, line } of this.links) {
      const a = this.agents.get(link.a)!.mesh.position;
      const b = this.agents.get(link.b)!.mesh.position;
      const start = line.geometry.getAttribute('instanceStart') as THREE.InterleavedBufferAttribute | undefined;
      if (start) {
        // Reuse the GPU buffer while gliding: setPositions would allocate a new one every frame.
        start.data.array.set([a.x, a.y, a.z, b.x, b.y, b.z]);
        start.data.needsUpdate = true;
        line.geometry.computeBoundingSphere();
        line.geometry.computeBoundingBox();
      } else {
        line.geometry.setPositions([a.x, a.y, a.z, b.x, b.y, b.z]);
      }
      if (line.material.dashed) line.computeLineDistances();
    }
  }
}

function worstLevels(links: readonly Link[]): Map<string, AdvisoryLevel> {
  const worst = new Map<string, AdvisoryLevel>();
  for (const link of links) {
    for (const id of [link.a, link.b]) {
      const current = worst.get(id) ?? 'clear';
      if ((LEVEL_RANK[link.level] ?? 0) > LEVEL_RANK[current]) worst.set(id, link.level);
    }
  }
  return worst;
}

function clamp01(x: number): number {
  return Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0;
}
