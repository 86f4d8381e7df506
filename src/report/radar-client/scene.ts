/**
 * The three.js stage: renderer, camera, orbit controls, the radar grid, the HTML labels that
 * follow the agents, and picking (hover/click) of agents and links.
 */
import * as THREE from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import type { Link, ScanResult } from '../../engine/types.js';
import { BACKGROUND, GRID_CENTER_COLOR, GRID_COLOR, cssColor, LEVEL_COLOR } from './colors.js';
import { el, formatRisk } from './dom.js';
import { type Layout, SCENE_RADIUS } from './layout.js';
import { SceneContent } from './scene-content.js';

export type Pick = { kind: 'agent'; id: string } | { kind: 'link'; link: Link } | null;

export class RadarScene {
  readonly content: SceneContent;
  private readonly renderer: THREE.WebGLRenderer;
  private readonly scene = new THREE.Scene();
  private readonly camera: THREE.PerspectiveCamera;
  private readonly controls: OrbitControls;
  private readonly labels: HTMLElement;
  private readonly labelNodes = new Map<string, HTMLElement>();
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
    host.append(this.labels);
    this.camera = new THREE.PerspectiveCamera(50, 1, 0.05, 500);
    this.camera.position.set(SCENE_RADIUS * 1.2, SCENE_RADIUS * 0.75, SCENE_RADIUS * 1.7);
    this.controls = new OrbitControls(this.camera, this.renderer.domElement);
    this.controls.enableDamping = true;
    this.controls.dampingFactor = 0.08;
    this.controls.target.set(0, -SCENE_RADIUS * 0.15, 0);
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

  apply(scan: ScanResult, layout: Layout, animate: boolean): void {
    this.content.motion = !this.motionQuery.matches;
    this.content.apply(scan, layout, performance.now(), animate);
    this.syncLabels(scan);
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

  private syncLabels(scan: ScanResult): void {
    const wanted = new Map<string, { text: string; className: string; color?: string }>();
    for (const id of Object.keys(scan.positions)) wanted.set(`agent:${id}`, { text: id, className: 'label agent-label' });
    for (const link of scan.links) {
      if (link.level === 'clear') continue;
      wanted.set(`link:${link.a}\u0000${link.b}`, {
        text: `${link.level} ${formatRisk(link.risk)}`,
        className: `label link-label level-${link.level}`,
        color: cssColor(LEVEL_COLOR[link.level]),
      });
    }
    for (const [key, node] of this.labelNodes) {
      if (!wanted.has(key)) {
        node.remove();
        this.labelNodes.delete(key);
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
      node.textContent = spec.text;
      if (spec.color) node.style.borderColor = spec.color;
    }
  }

  private placeLabels(): void {
    const { width, height } = this.host.getBoundingClientRect();
    const v = new THREE.Vector3();
    const taken: { x: number; y: number; w: number }[] = [];
    for (const [key, node] of this.labelNodes) {
      if (key.startsWith('agent:')) {
        const view = this.content.agents.get(key.slice(6));
        if (!view) continue;
        v.copy(view.mesh.position);
      } else {
        const [a, b] = key.slice(5).split('\u0000');
        const pa = this.content.agents.get(a ?? '')?.mesh.position;
        const pb = this.content.agents.get(b ?? '')?.mesh.position;
        if (!pa || !pb) continue;
        v.copy(pa).add(pb).multiplyScalar(0.5);
      }
      v.project(this.camera);
      const visible = v.z < 1 && Math.abs(v.x) < 1.1 && Math.abs(v.y) < 1.1;
      node.style.display = visible ? '' : 'none';
      const x = ((v.x + 1) / 2) * width;
      let y = ((1 - v.y) / 2) * height;
      if (key.startsWith('agent:') && visible) {
        // Agents closing in on each other would stack their names: push later labels down a row.
        const w = node.offsetWidth;
        for (let tries = 0; tries < 6 && taken.some((r) => Math.abs(r.y - y) < 20 && x < r.x + r.w && r.x < x + w); tries++) y += 21;
        taken.push({ x, y, w });
      }
      node.style.transform = `translate(${x}px, ${y}px)`;
      // Where the object itself is on screen (the label may be nudged): for tests and tooling.
      node.dataset.x = x.toFixed(1);
      node.dataset.y = (((1 - v.y) / 2) * height).toFixed(1);
    }
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
