import { EXIT } from '../../errors.js';
import { intentMessages } from '../../messages/intent.js';
import type { Output } from '../../report/output.js';
import { addIntent, clearIntent, listIntent } from '../../state/intent-store.js';
import { jsonText } from '../../report/sanitize-text.js';

/** `intent add|list|clear`: files this agent is about to touch, scored as whole-file entries. */
export async function intentCommand(
  cwd: string,
  args: { action: 'add' | 'list' | 'clear'; paths: readonly string[]; json: boolean },
  output: Output,
): Promise<number> {
  let paths: string[];
  if (args.action === 'add') {
    if (args.paths.length === 0) {
      output.err(intentMessages.needPaths);
      return EXIT.error;
    }
    paths = await addIntent(cwd, args.paths);
  } else if (args.action === 'clear') paths = await clearIntent(cwd, args.paths.length > 0 ? args.paths : undefined);
  else paths = await listIntent(cwd);
  output.out(args.json ? jsonText({ intent: paths }) : intentMessages.list(args.action, paths));
  return EXIT.ok;
}
