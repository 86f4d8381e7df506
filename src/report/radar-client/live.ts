/**
 * Live mode: the radar server serves the latest scan at a same-origin path; the page polls it and
 * hands over each new scan (by sequence number) exactly once. Polls never overlap.
 */
import type { ScanResult } from '../../engine/types.js';

/** The JSON served at /scan.json (mirrors LiveScan in ../radar-server.ts). */
interface LivePayload {
  readonly seq: number;
  readonly at: number;
  readonly scan: ScanResult | null;
  readonly ownship: string | null;
  readonly error: string | null;
}

export interface LiveHandlers {
  onScan(latest: { seq: number; at: number; scan: ScanResult; ownship: string | null }): void;
  onStatus(kind: 'waiting' | 'failed' | 'lost'): void;
}

export function startPolling(poll: { path: string; intervalMs: number }, handlers: LiveHandlers): void {
  let lastSeq = -1;
  const interval = Math.max(250, Math.min(poll.intervalMs, 5000));
  const once = async (): Promise<void> => {
    try {
      const response = await fetch(poll.path, { cache: 'no-store' });
      if (!response.ok) throw new Error(String(response.status));
      const payload = (await response.json()) as LivePayload;
      if (payload.scan && payload.seq !== lastSeq) {
        lastSeq = payload.seq;
        handlers.onScan({ seq: payload.seq, at: payload.at, scan: payload.scan, ownship: typeof payload.ownship === 'string' ? payload.ownship : null });
      }
      if (payload.error) handlers.onStatus('failed');
      else if (!payload.scan) handlers.onStatus('waiting');
    } catch {
      handlers.onStatus('lost');
    }
    setTimeout(() => void once(), interval);
  };
  void once();
}
