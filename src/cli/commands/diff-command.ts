import { AirspaceError, EXIT } from '../../errors.js';
import { peerDiffMessages } from '../../messages/agent-views.js';
import type { Output } from '../../report/output.js';
import { jsonText } from '../../report/sanitize-text.js';
import type { PeerDiffReport } from '../../report/peer-diff-report.js';
import { renderPeerDiff } from '../../report/render-peer-diff.js';
import { peerDiff } from '../../app/diff.js';

export interface DiffArgs {
  readonly peer: string;
  readonly file?: string | undefined;
  readonly near: number;
  readonly context: number;
  readonly maxHunks: number;
  readonly maxBytes: number;
  readonly json: boolean;
}

/** `diff PEER [FILE]`: the peer's hunks near yours. Read-only; advisory (exit 0). */
export async function diffCommand(cwd: string, args: DiffArgs, output: Output): Promise<number> {
  const report = await peerDiffReport(cwd, args);
  output.out(args.json ? jsonText(report) : renderPeerDiff(report, output.style));
  return EXIT.ok;
}

/** Validates the numbers (they come from argv or an MCP client) and runs the read. */
export async function peerDiffReport(cwd: string, args: Omit<DiffArgs, 'json'>): Promise<PeerDiffReport> {
  for (const [name, value] of [
    ['near', args.near],
    ['context', args.context],
    ['max-hunks', args.maxHunks],
    ['max-bytes', args.maxBytes],
  ] as const) {
    if (!Number.isInteger(value) || value < 0 || value > 100_000) throw new AirspaceError('usage', 'bad-number', peerDiffMessages.badNumber(name, value));
  }
  return peerDiff({
    cwd,
    peer: args.peer,
    ...(args.file !== undefined ? { file: args.file } : {}),
    near: args.near,
    context: args.context,
    maxHunks: args.maxHunks,
    maxBytes: args.maxBytes,
    now: Date.now(),
  });
}
