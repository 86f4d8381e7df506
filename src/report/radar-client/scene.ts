/**
 * The three.js stage: renderer, camera, orbit controls, the radar grid, the HTML labels that
 * follow the agents, and picking (hover/click) of agents and links.
 */
import * as THREE from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import type { Link, ScanResult } from '../../engine/types.js';
import { BACKGROUND, GRID_CENTER_COLOR, GRID_COLOR, cssColor, LEVEL_COLOR } from './colors.js';
import { radarPageText as T } from '../../messages/agent-views.js';
import { el, formatRisk } from './dom.js';
import { DEFAULT_VIEW, type Layout, SCENE_RADIUS } from './layout.js';
import { type Box, besideLink, besideMarker, type LabelRequest, placeLabels, type Segment } from './place-labels.js';
import { MARKER_RADIUS, SceneContent } from './scene-content.js';
import { badgeFiles } from './short-path.js';

/** An agent's marker in CSS pixels of the view: centre, radius with its halo, in front of the camera. */
interface MarkerOnScreen {
  readonly x: number;
  readonly y: number;
  readonly r: number;
  /** In front of the camera and inside the view. */
  readonly visible: boolean;
  /** Under one of the page's cards. */
  readonly covered?: boolean;
}

interface LabelSpec {
  readonly className: string;
  readonly color?: string;
  /** Lines of text, each with its class; the first is the label's own text. */
  readonly parts: readonly { readonly className: string; readonly text: string }[];
}

export type Pick = { kind: 'agent'; id: string } | { kind: 'link'; link: Link } | null;

export class RadarScene {
  readonly content: SceneContent;
  private readonly renderer: THREE.WebGLRenderer;
  private readonly scene = new THREE.Scene();
  private readonly camera: THREE.PerspectiveCamera;
  private readonly controls: OrbitControls;
  private readonly labels: HTMLElement;
  private readonly labelNodes = new Map<string, HTMLElement>();
  /** Thin lines from a badge to the link it labels, when the badge had to sit away from it. */
  private readonly leaders: SVGSVGElement;
  /** Each label's size, measured when its text changes (not in every frame: that forces a layout). */
  private readonly labelSizes = new Map<string, { w: number; h: number }>();
  /** The candidate spot each label took last frame, tried first (labels do not flip as the view turns). */
  private labelSpots = new Map<string, number>();
  private readonly raycaster = new THREE.Raycaster();
  private readonly pointer = new THREE.Vector2();
  /** Frames drawn so far: the page draws on demand, so this stays put while nothing changes. */
  renders = 0;
  private framePending = false;
  private readonly motionQuery: MediaQueryList;

  constructor(
    private readonly host: HTMLElement,
    onPick: (pick: Pick, pinned: boolean) => void,
    /** After each rendered frame; `settled`: that frame shows every agent at its place. */
    private readonly onRendered: (settled: boolean, renders: number) => void = () => undefined,
  ) {
    this.renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2));
    this.renderer.setClearColor(BACKGROUND);
    host.append(this.renderer.domElement);
    this.labels = el('div', 'labels');
    this.leaders = document.createElementNS(SVG_NS, 'svg');
    this.leaders.classList.add('leaders');
    this.labels.append(this.leaders);
    host.append(this.labels);
    this.camera = new THREE.PerspectiveCamera(DEFAULT_VIEW.fovDegrees, 1, 0.05, 500);
    this.camera.position.set(...DEFAULT_VIEW.eye);
    this.controls = new OrbitControls(this.camera, this.renderer.domElement);
    this.controls.enableDamping = true;
    this.controls.dampingFactor = 0.08;
    this.controls.target.set(...DEFAULT_VIEW.target);
    // Dragging or zooming moves the camera: draw it (damping keeps asking while it eases out).
    this.controls.addEventListener('change', () => this.requestRender());
    this.scene.fog = new THREE.Fog(BACKGROUND, SCENE_RADIUS * 2.2, SCENE_RADIUS * 5);
    this.scene.add(radarGrid());
    this.content = new SceneContent(roundPointTexture());
    this.scene.add(this.content.root);
    this.raycaster.params.Line2 = { threshold: 8 };
    this.raycaster.params.Points = { threshold: 0.1 };
    const canvas = this.renderer.domElement;
    canvas.addEventListener('pointermove', (event) => onPick(this.pick(event), false));
    let down = { x: 0, y: 0 };
    canvas.addEventListener('pointerdown', (event) => (down = { x: event.clientX, y: event.clientY }));
    canvas.addEventListener('click', (event) => {
      // A drag that rotated the view is not a click on whatever sits under the pointer at the end.
      if (Math.hypot(event.clientX - down.x, event.clientY - down.y) > 4) return;
      onPick(this.pick(event), true);
    });
    new ResizeObserver(() => this.resize()).observe(host);
    this.resize();
    // Reduced motion read at each change, so the reader's setting applies without a reload.
    this.motionQuery = window.matchMedia('(prefers-reduced-motion: reduce)');
  }

  apply(scan: ScanResult, layout: Layout, animate: boolean, ownship: string | null = null): void {
    this.content.motion = !this.motionQuery.matches;
    this.content.apply(scan, layout, performance.now(), animate, ownship);
    this.syncLabels(scan, ownship);
    this.requestRender();
  }

  /**
   * Draws on the next animation frame, once however often it is asked. The page draws only after
   * a change, during a glide or a pulse, or while the view moves: a settled radar left open (a CI
   * artefact) costs no drawing, a live one a frame per scan.
   */
  requestRender(): void {
    if (this.framePending) return;
    this.framePending = true;
    requestAnimationFrame((time) => {
      this.framePending = false;
      this.frame(time);
    });
  }

  /** Emphasises the picked agent or link (or nothing) in the scene and on the labels. */
  setHighlight(pick: Pick): void {
    this.content.highlight(pick?.kind === 'agent' ? [pick.id] : pick ? [pick.link.a, pick.link.b] : [], pick?.kind === 'link' ? pick.link : null);
    this.requestRender();
    for (const node of this.labelNodes.values()) node.classList.remove('picked');
    if (!pick) return;
    const ids = pick.kind === 'agent' ? [pick.id] : [pick.link.a, pick.link.b];
    for (const id of ids) this.labelNodes.get(`agent:${id}`)?.classList.add('picked');
  }

  private pick(event: MouseEvent): Pick {
    const rect = this.renderer.domElement.getBoundingClientRect();
    this.pointer.set(((event.clientX - rect.left) / rect.width) * 2 - 1, -((event.clientY - rect.top) / rect.height) * 2 + 1);
    this.raycaster.setFromCamera(this.pointer, this.camera);
    const { agents, links } = this.content.pickables;
    const agentHit = this.raycaster.intersectObjects(agents, false)[0];
    if (agentHit) return { kind: 'agent', id: String(agentHit.object.userData.id) };
    const linkHit = this.raycaster.intersectObjects(links, false)[0];
    if (linkHit) {
      const view = this.content.links.find((v) => v.line === linkHit.object);
      if (view) return { kind: 'link', link: view.link };
    }
    return null;
  }

  private syncLabels(scan: ScanResult, ownship: string | null): void {
    const wanted = new Map<string, LabelSpec>();
    for (const id of Object.keys(scan.positions)) {
      const you = id === ownship;
      wanted.set(`agent:${id}`, {
        className: `label agent-label${you ? ' ownship' : ''}`,
        parts: you
          ? [
              { className: 'you', text: T.you },
              { className: 'name', text: id },
            ]
          : [{ className: 'name', text: id }],
      });
    }
    for (const link of scan.links) {
      if (link.level === 'clear') continue;
      const { names, more } = badgeFiles(link);
      wanted.set(`link:${link.a}\u0000${link.b}`, {
        className: `label link-label level-${link.level}`,
        color: cssColor(LEVEL_COLOR[link.level]),
        parts: [
          { className: 'risk', text: `${link.level} ${formatRisk(link.risk)}` },
          ...names.map((name) => ({ className: 'file', text: name })),
          ...(more > 0 ? [{ className: 'more', text: T.moreFiles(more) }] : []),
        ],
      });
    }
    for (const [key, node] of this.labelNodes) {
      if (!wanted.has(key)) {
        node.remove();
        this.labelNodes.delete(key);
        this.labelSizes.delete(key);
      }
    }
    for (const [key, spec] of wanted) {
      let node = this.labelNodes.get(key);
      if (!node) {
        node = el('div');
        this.labels.append(node);
        this.labelNodes.set(key, node);
      }
      node.className = spec.className;
      // Untrusted names (branch names, a peer's file paths) only ever go in as text.
      node.replaceChildren(...spec.parts.map((part) => el('span', part.className, part.text)));
      if (spec.color) node.style.borderColor = spec.color;
      node.style.display = '';
    }
    // One layout for all the sizes, after every text is in.
    for (const [key, node] of this.labelNodes) this.labelSizes.set(key, { w: node.offsetWidth, h: node.offsetHeight });
  }

  /**
   * Puts every label where it covers nothing: agent names beside their marker, advisory badges
   * beside their line. Markers, advisory lines, the page's cards and the labels already placed are
   * what they avoid (src/report/radar-client/place-labels.ts).
   */
  private placeLabels(): void {
    const host = this.host.getBoundingClientRect();
    const { width, height } = host;
    const screen = new Map<string, MarkerOnScreen>();
    const v = new THREE.Vector3();
    const edge = new THREE.Vector3();
    const right = new THREE.Vector3().setFromMatrixColumn(this.camera.matrixWorld, 0);
    for (const [id, view] of this.content.agents) {
      v.copy(view.mesh.position).project(this.camera);
      edge.copy(view.mesh.position).addScaledVector(right, MARKER_RADIUS).project(this.camera);
      const x = ((v.x + 1) / 2) * width;
      const y = ((1 - v.y) / 2) * height;
      const r = Math.hypot(((edge.x + 1) / 2) * width - x, ((1 - edge.y) / 2) * height - y);
      screen.set(id, { x, y, r, visible: v.z < 1 && Math.abs(v.x) < 1.1 && Math.abs(v.y) < 1.1 });
    }
    // The cards float over the view: a label under one would be hidden.
    const cards: Box[] = Array.from(document.querySelectorAll<HTMLElement>('.card'))
      .filter((card) => !card.hidden)
      .map((card) => card.getBoundingClientRect())
      .filter((r) => r.width > 0 && r.height > 0)
      .map((r) => ({ x: r.left - host.left, y: r.top - host.top, w: r.width, h: r.height }));
    // A marker under a card (the details panel opened over it) is not seen: its name is not shown
    // elsewhere, on top of what is.
    for (const [id, m] of screen) {
      if (cards.some((c) => m.x >= c.x && m.x <= c.x + c.w && m.y >= c.y && m.y <= c.y + c.h)) screen.set(id, { ...m, covered: true });
    }
    const markers: Box[] = [...screen.values()].filter((m) => m.visible).map((m) => ({ x: m.x - m.r, y: m.y - m.r, w: 2 * m.r, h: 2 * m.r }));
    const segments: Segment[] = [];
    const linkEnds = new Map<string, { a: MarkerOnScreen; b: MarkerOnScreen }>();
    for (const key of this.labelNodes.keys()) {
      if (!key.startsWith('link:')) continue;
      const [a, b] = key.slice(5).split('\u0000');
      const pa = screen.get(a ?? '');
      const pb = screen.get(b ?? '');
      if (!pa || !pb) continue;
      linkEnds.set(key, { a: pa, b: pb });
      if (pa.visible && pb.visible) segments.push({ x1: pa.x, y1: pa.y, x2: pb.x, y2: pb.y });
    }
    const requests: LabelRequest[] = [];
    const anchors = new Map<string, { x: number; y: number; visible: boolean }>();
    const keys = [...this.labelNodes.keys()].sort((p, q) => labelRank(this.labelNodes.get(p)!) - labelRank(this.labelNodes.get(q)!));
    for (const key of keys) {
      const size = this.labelSizes.get(key) ?? { w: 0, h: 0 };
      if (key.startsWith('agent:')) {
        const m = screen.get(key.slice(6));
        if (!m) continue;
        anchors.set(key, m);
        if (m.visible && !m.covered) requests.push({ key, ...size, candidates: besideMarker(m.x, m.y, m.r, size.w, size.h) });
      } else {
        const ends = linkEnds.get(key);
        if (!ends) continue;
        const visible = ends.a.visible && ends.b.visible && !(ends.a.covered && ends.b.covered);
        anchors.set(key, { x: (ends.a.x + ends.b.x) / 2, y: (ends.a.y + ends.b.y) / 2, visible });
        if (visible) requests.push({ key, ...size, candidates: besideLink([ends.a.x, ends.a.y], [ends.b.x, ends.b.y], size.w, size.h) });
      }
    }
    const placements = placeLabels(requests, { boxes: [...markers, ...cards], segments, bounds: { x: 0, y: 0, w: width, h: height } }, this.labelSpots);
    this.labelSpots = new Map([...placements].map(([key, p]) => [key, p.candidate]));
    for (const [key, node] of this.labelNodes) {
      const anchor = anchors.get(key);
      const placed = placements.get(key);
      node.style.display = anchor?.visible && placed ? '' : 'none';
      if (!anchor || !placed) continue;
      node.style.transform = `translate(${placed.x.toFixed(1)}px, ${placed.y.toFixed(1)}px)`;
      // Where the object itself is on screen (the label sits beside it): for tests and tooling.
      node.dataset.x = anchor.x.toFixed(1);
      node.dataset.y = anchor.y.toFixed(1);
      if (key.startsWith('agent:')) node.dataset.r = (screen.get(key.slice(6))?.r ?? 0).toFixed(1);
      node.dataset.clear = String(placed.clear);
    }
    this.drawLeaders(linkEnds, placements);
  }

  /** A leader from each badge standing off its line (more than a few pixels) to the nearest point of that line. */
  private drawLeaders(
    linkEnds: ReadonlyMap<string, { a: MarkerOnScreen; b: MarkerOnScreen }>,
    placements: ReadonlyMap<string, { x: number; y: number }>,
  ): void {
    const lines: SVGLineElement[] = [];
    for (const [key, ends] of linkEnds) {
      const placed = placements.get(key);
      const size = this.labelSizes.get(key);
      if (!placed || !size || !ends.a.visible || !ends.b.visible) continue;
      const box = { x: placed.x, y: placed.y, w: size.w, h: size.h };
      const [lx, ly] = nearestOnSegment(ends.a, ends.b, box.x + box.w / 2, box.y + box.h / 2);
      const bx = Math.max(box.x, Math.min(box.x + box.w, lx));
      const by = Math.max(box.y, Math.min(box.y + box.h, ly));
      if (Math.hypot(bx - lx, by - ly) < 10) continue;
      const line = document.createElementNS(SVG_NS, 'line');
      line.setAttribute('x1', bx.toFixed(1));
      line.setAttribute('y1', by.toFixed(1));
      line.setAttribute('x2', lx.toFixed(1));
      line.setAttribute('y2', ly.toFixed(1));
      line.setAttribute('class', this.labelNodes.get(key)?.classList.contains('level-RA') ? 'leader level-RA' : 'leader level-TA');
      lines.push(line);
    }
    this.leaders.replaceChildren(...lines);
  }

  private frame(time: number): void {
    const viewMoving = this.controls.update();
    this.content.tick(time);
    this.content.faceCamera(this.camera);
    this.renderer.render(this.scene, this.camera);
    this.placeLabels();
    if (viewMoving || this.content.animating(time)) this.requestRender();
    this.renders += 1;
    this.onRendered(this.content.settled, this.renders);
  }

  private resize(): void {
    const { width, height } = this.host.getBoundingClientRect();
    const w = Math.max(1, Math.floor(width));
    const h = Math.max(1, Math.floor(height));
    this.renderer.setSize(w, h, false);
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
    this.content.setResolution(w, h);
    this.requestRender();
  }
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** The point of segment a–b nearest to (x, y). */
function nearestOnSegment(a: { x: number; y: number }, b: { x: number; y: number }, x: number, y: number): [number, number] {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const length2 = dx * dx + dy * dy;
  // Not at the very ends: those are inside the markers.
  const t = length2 > 0 ? Math.max(0.15, Math.min(0.85, ((x - a.x) * dx + (y - a.y) * dy) / length2)) : 0;
  return [a.x + t * dx, a.y + t * dy];
}

/**
 * Placement order: the ownship's name, RA badges, TA badges, other names. A badge belongs next to
 * the middle of its line; a name has eight sides of its marker to choose from.
 */
function labelRank(node: HTMLElement): number {
  const list = node.classList;
  return list.contains('ownship') ? 0 : list.contains('level-RA') ? 1 : list.contains('level-TA') ? 2 : 3;
}

function radarGrid(): THREE.Object3D {
  const group = new THREE.Group();
  const polar = new THREE.PolarGridHelper(SCENE_RADIUS * 1.3, 12, 6, 96, GRID_CENTER_COLOR, GRID_COLOR);
  polar.position.y = -SCENE_RADIUS * 0.9;
  for (const material of [polar.material].flat()) {
    material.transparent = true;
    material.opacity = 0.45;
  }
  group.add(polar);
  return group;
}

/** A soft round dot, drawn on a canvas: points are squares otherwise, and nothing is downloaded. */
function roundPointTexture(): THREE.Texture {
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = 64;
  const ctx = canvas.getContext('2d')!;
  const gradient = ctx.createRadialGradient(32, 32, 0, 32, 32, 32);
  gradient.addColorStop(0, 'rgba(255,255,255,1)');
  gradient.addColorStop(0.45, 'rgba(255,255,255,0.9)');
  gradient.addColorStop(1, 'rgba(255,255,255,0)');
  ctx.fillStyle = gradient;
  ctx.fillRect(0, 0, 64, 64);
  return new THREE.CanvasTexture(canvas);
}
