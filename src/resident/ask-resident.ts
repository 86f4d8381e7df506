import { lstatSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { packageIdentity } from './resident-identity.js';
import { residentInfoFile } from './resident-paths.js';
import { onLines, RESIDENT_PROTOCOL, writeLine, type ResidentInfo, type ResidentReply, type ResidentRequest } from './resident-protocol.js';

/**
 * Asks the repository's resident process, or says why not — never throws, never waits longer than
 * the caller allows. Every "not" is a reason to take the one-shot path, which judges the same states
 * the same way; so a resident that is absent, killed (-9 leaves its socket and info file behind:
 * connecting is refused at once), of another build, busy or silent costs at most the connect and
 * accept timeouts, a few milliseconds in the usual cases.
 */
export type AskResult = { readonly ok: true; readonly answer: unknown } | { readonly ok: false; readonly reason: FallbackReason };

/** absent/stale/other-version: no usable resident (the one-shot path may start one). */
export type FallbackReason = 'absent' | 'stale' | 'other-version' | 'refused' | 'no-reply' | 'closed' | 'failed';

export interface AskOptions {
  /** Connect and the resident's `accepted` together; default 250 ms. */
  readonly acceptTimeoutMs?: number;
  /** The whole answer after `accepted`; default 10 minutes (a run ends itself at its budget). */
  readonly answerTimeoutMs?: number;
  /** The identity to present (default: this package's, read from disk). */
  readonly identity?: string | null;
  /** Gives up (and so ends the resident's run for this question): Ctrl-C on `check`. */
  readonly signal?: AbortSignal;
}

export function readResidentInfo(commonDir: string): ResidentInfo | null {
  try {
    const info = JSON.parse(readFileSync(residentInfoFile(commonDir), 'utf8').slice(0, 64 * 1024)) as Partial<ResidentInfo>;
    if (typeof info.pid !== 'number' || typeof info.socket !== 'string' || typeof info.identity !== 'string' || typeof info.protocol !== 'number') return null;
    return info as ResidentInfo;
  } catch {
    return null;
  }
}

export function askResident(commonDir: string, request: ResidentRequest, options: AskOptions = {}): Promise<AskResult> {
  const info = readResidentInfo(commonDir);
  if (info === null) return Promise.resolve({ ok: false, reason: 'absent' });
  const identity = options.identity === undefined ? packageIdentity() : options.identity;
  if (identity === null || info.identity !== identity || info.protocol !== RESIDENT_PROTOCOL) return Promise.resolve({ ok: false, reason: 'other-version' });
  if (!isOwnSocket(info.socket)) return Promise.resolve({ ok: false, reason: 'stale' });
  return new Promise((settle) => {
    let done = false;
    const socket = connect(info.socket);
    const finish = (result: AskResult) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      settle(result);
    };
    let timer = setTimeout(() => finish({ ok: false, reason: 'no-reply' }), options.acceptTimeoutMs ?? 250);
    options.signal?.addEventListener('abort', () => finish({ ok: false, reason: 'closed' }), { once: true });
    socket.on('error', (error: NodeJS.ErrnoException) =>
      finish({ ok: false, reason: error.code === 'ECONNREFUSED' || error.code === 'ENOENT' ? 'stale' : 'closed' }),
    );
    socket.on('close', () => finish({ ok: false, reason: 'closed' }));
    socket.on('connect', () => writeLine(socket, { protocol: RESIDENT_PROTOCOL, identity, request }));
    onLines(socket, (line) => {
      let reply: ResidentReply;
      try {
        reply = JSON.parse(line) as ResidentReply;
      } catch {
        return finish({ ok: false, reason: 'failed' });
      }
      if (reply.type === 'accepted') {
        clearTimeout(timer);
        timer = setTimeout(() => finish({ ok: false, reason: 'no-reply' }), options.answerTimeoutMs ?? 600_000);
      } else if (reply.type === 'answer') finish({ ok: true, answer: reply.answer });
      else if (reply.type === 'refused') finish({ ok: false, reason: 'refused' });
      else finish({ ok: false, reason: 'failed' });
    });
  });
}

/** A socket of ours: in a shared temp dir, a file of another user's must never be talked to. */
export function isOwnSocket(path: string): boolean {
  try {
    const stat = lstatSync(path);
    const uid = typeof process.getuid === 'function' ? process.getuid() : stat.uid;
    return stat.isSocket() && stat.uid === uid;
  } catch {
    return false;
  }
}
