/**
 * `airspace-hooks radar --serve`: the radar page on localhost, refreshed as the agents move.
 * `/` is the same self-contained page as `radar --out`, told to poll; `/scan.json` is the latest
 * scan. Scans run one after another (the next is scheduled when the previous one has settled), so
 * a slow scan on a big repository never piles up concurrent git processes.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ScanResult } from '../engine/types.js';
import { AirspaceError } from '../errors.js';
import { radarErrors } from '../messages/agent-views.js';
import { renderRadarHtml } from './radar-html.js';
import { jsonLine } from './sanitize-text.js';

export interface RadarServerOptions {
  /** 0 picks a free port. */
  readonly port?: number;
  /** Loopback by default: the page shows branch names and file paths of the whole team. */
  readonly host?: string;
  /** One scan, and the agent of the worktree it was run in (drawn as "you"), if any. */
  readonly scan: () => Promise<RadarScan>;
  readonly intervalMs?: number;
  readonly title?: string;
}

export interface RadarServer {
  readonly url: string;
  close(): Promise<void>;
}

export interface RadarScan {
  readonly scan: ScanResult;
  readonly ownship: string | null;
}

/** The JSON served at /scan.json. `seq` grows by one with every successful scan. */
export interface LiveScan {
  readonly seq: number;
  readonly at: number;
  readonly scan: ScanResult | null;
  readonly ownship: string | null;
  /** The last scan's failure; the previous scan (if any) is still served. */
  readonly error: string | null;
}

const SCAN_PATH = '/scan.json';

export async function serveRadar(options: RadarServerOptions): Promise<RadarServer> {
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? 0;
  const intervalMs = options.intervalMs ?? 2000;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new AirspaceError('usage', 'radar-bad-port', radarErrors.badPort(port));
  if (!(intervalMs >= 100)) throw new AirspaceError('usage', 'radar-bad-interval', radarErrors.badInterval(intervalMs));

  let state: LiveScan = { seq: 0, at: Date.now(), scan: null, ownship: null, error: null };
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let page: { seq: number; html: string } | undefined;

  const scanOnce = async (): Promise<void> => {
    try {
      const { scan, ownship } = await options.scan();
      if (!closed) state = { seq: state.seq + 1, at: Date.now(), scan, ownship, error: null };
    } catch (error) {
      if (!closed) state = { ...state, error: error instanceof Error ? error.message : String(error) };
    }
  };
  const loop = async (): Promise<void> => {
    await scanOnce();
    if (!closed) timer = setTimeout(() => void loop(), intervalMs);
  };

  const render = (): string => {
    if (page?.seq !== state.seq) {
      const frame = { title: options.title ?? 'live', at: state.at, scan: state.scan ?? emptyScan(), ownship: state.ownship };
      page = { seq: state.seq, html: renderRadarHtml(frame, { ...(options.title ? { title: options.title } : {}), poll: { path: SCAN_PATH, intervalMs } }) };
    }
    return page.html;
  };

  const server = createServer((request, response) => {
    try {
      handle(request, response);
    } catch (error) {
      send(response, 500, 'text/plain; charset=utf-8', error instanceof Error ? error.message : String(error));
    }
  });
  const handle = (request: IncomingMessage, response: ServerResponse): void => {
    // A page on another origin could resolve its own name to 127.0.0.1 (DNS rebinding) and read
    // the team's branch names and paths: only answer requests addressed to a loopback name.
    if (!allowedHost(request.headers.host, host, actualPort())) {
      send(response, 403, 'text/plain; charset=utf-8', 'forbidden');
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      send(response, 405, 'text/plain; charset=utf-8', 'method not allowed');
      return;
    }
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (path === '/' || path === '/index.html') {
      send(response, 200, 'text/html; charset=utf-8', render(), request.method);
      return;
    }
    if (path === SCAN_PATH) {
      send(response, 200, 'application/json; charset=utf-8', jsonLine(state), request.method);
      return;
    }
    send(response, 404, 'text/plain; charset=utf-8', 'not found');
  };
  const actualPort = (): number => (server.address() as AddressInfo | null)?.port ?? port;

  await scanOnce();
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) => reject(new AirspaceError('environment', 'radar-listen-failed', radarErrors.listenFailed(host, port, error.message))));
    server.listen(port, host, () => resolve());
  });
  timer = setTimeout(() => void loop(), intervalMs);

  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${actualPort()}/`,
    close: async () => {
      closed = true;
      clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function send(response: ServerResponse, status: number, type: string, body: string, method = 'GET'): void {
  response.writeHead(status, {
    'content-type': type,
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  response.end(method === 'HEAD' ? undefined : body);
}

/** Only enforced on loopback: whoever binds 0.0.0.0 asked to be reached by other names. */
function allowedHost(header: string | undefined, host: string, port: number): boolean {
  if (!['127.0.0.1', 'localhost', '::1'].includes(host)) return true;
  if (!header) return false;
  const names = new Set([host, 'localhost', '127.0.0.1', '[::1]', host.includes(':') ? `[${host}]` : host]);
  return [...names].some((name) => header === `${name}:${port}`);
}

function emptyScan(): ScanResult {
  return { advisories: [], links: [], positions: {}, fileCoordinates: {}, counts: { agents: 0, pairs: 0, clear: 0, TA: 0, RA: 0 } };
}
