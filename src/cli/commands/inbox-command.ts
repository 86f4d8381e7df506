import { EXIT } from '../../errors.js';
import { inboxSummaryLine } from '../../messages/transponder.js';
import type { Output } from '../../report/output.js';
import { formatRanges } from '../../report/render-text.js';
import { jsonText, sanitizeText } from '../../report/sanitize-text.js';
import { readOwnInbox } from '../../app/inbox.js';

/** `inbox [--ack]`: what other agents told this one on their advisories. */
export async function inboxCommand(cwd: string, args: { json: boolean; ack: boolean }, output: Output): Promise<number> {
  const messages = await readOwnInbox(cwd, { ack: args.ack });
  if (args.json) output.out(jsonText({ messages }));
  else {
    const lines = [inboxSummaryLine(messages.length)];
    for (const m of messages) {
      lines.push(
        `${m.level === 'RA' ? output.style.red('RA') : output.style.yellow('TA')} from ${sanitizeText(m.from)}  risk ${m.risk.toFixed(2)}  ${new Date(m.at).toISOString()}`,
      );
      for (const f of m.files) lines.push(`    ${sanitizeText(f.path)}  ${formatRanges(f.ranges.length > 0 ? f.ranges : undefined)}`);
      if (m.subjects.length) lines.push(`    commits: ${m.subjects.map((s) => `"${sanitizeText(s, { maxLength: 72 })}"`).join(', ')}`);
      if (m.intent.length) lines.push(`    intent: ${m.intent.map((p) => sanitizeText(p)).join(', ')}`);
      if (m.note) lines.push(`    note: ${sanitizeText(m.note)}`);
    }
    output.out(lines.join('\n'));
  }
  return EXIT.ok;
}
