import { EXIT } from '../../errors.js';
import { intentMessages } from '../../messages/intent.js';
import type { Output } from '../../report/output.js';
import { jsonText } from '../../report/sanitize-text.js';
import { changeIntent } from '../../app/intent.js';

/** `intent add|list|clear`: files this agent is about to touch, scored as whole-file entries. */
export async function intentCommand(
  cwd: string,
  args: { action: 'add' | 'list' | 'clear'; paths: readonly string[]; json: boolean },
  output: Output,
): Promise<number> {
  if (args.action === 'add' && args.paths.length === 0) {
    output.err(intentMessages.needPaths);
    return EXIT.error;
  }
  const paths = await changeIntent(cwd, args.action, args.paths);
  output.out(args.json ? jsonText({ intent: paths }) : intentMessages.list(args.action, paths));
  return EXIT.ok;
}
