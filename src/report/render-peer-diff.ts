import { peerDiffMessages } from '../messages/agent-views.js';
import type { PeerDiffReport } from './peer-diff-report.js';
import { formatRanges } from './render-text.js';
import type { Style } from './terminal-style.js';

/** The peer's hunks as a terminal reads a diff; the report's text is already sanitized. */
export function renderPeerDiff(report: PeerDiffReport, style: Style): string {
  const lines = [style.bold(peerDiffMessages.header(report.peer, report.source, report.files.length, report.near))];
  for (const file of report.files) {
    const own = file.allHunks ? peerDiffMessages.ownNone : file.ownRanges === null ? peerDiffMessages.ownWhole : formatRanges(file.ownRanges);
    lines.push('', style.bold(peerDiffMessages.fileLine(file.path, own, file.uncommitted)));
    if (file.subjects.length > 0) lines.push(style.dim(peerDiffMessages.subjects(file.subjects)));
    if (file.binary) lines.push(peerDiffMessages.binary);
    for (const hunk of file.hunks) {
      lines.push(style.cyan(hunk.header));
      for (const line of hunk.lines) lines.push(line.startsWith('+') ? style.green(line) : line.startsWith('-') ? style.red(line) : line);
    }
  }
  const { files, hunks, bytes } = report.cut;
  if (files + hunks + bytes > 0) lines.push('', style.yellow(peerDiffMessages.cut(files, hunks, bytes)));
  return lines.join('\n');
}
