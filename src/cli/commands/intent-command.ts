import { EXIT } from '../../errors.js';
import { intentMessages } from '../../messages/transponder.js';
import type { Output } from '../../report/output.js';
import { jsonText } from '../../report/sanitize-text.js';
import { changeIntent, declareIntent } from '../../app/intent.js';

/**
 * `intent add|list|clear`: files this agent is about to touch, scored as whole-file entries.
 * `add --ttl <minutes>` declares them until then; its JSON also says which paths it declared (as
 * stored, repo-relative) and which of them are new, so a caller can withdraw exactly its own.
 */
export async function intentCommand(
  cwd: string,
  args: { action: 'add' | 'list' | 'clear'; paths: readonly string[]; json: boolean; ttl?: string },
  output: Output,
): Promise<number> {
  if (args.action === 'add' && args.paths.length === 0) {
    output.err(intentMessages.needPaths);
    return EXIT.error;
  }
  if (args.ttl !== undefined) {
    const minutes = Number(args.ttl);
    if (args.action !== 'add') output.err(intentMessages.ttlOnlyForAdd);
    else if (args.ttl.trim() === '' || !Number.isFinite(minutes) || minutes <= 0) output.err(intentMessages.badTtl(args.ttl));
    else {
      const declared = await declareIntent(cwd, args.paths, minutes * 60_000);
      output.out(
        args.json ? jsonText({ intent: declared.paths, declared: declared.declared, added: declared.added }) : intentMessages.list(args.action, declared.paths),
      );
      return EXIT.ok;
    }
    return EXIT.error;
  }
  const paths = await changeIntent(cwd, args.action, args.paths);
  output.out(args.json ? jsonText({ intent: paths }) : intentMessages.list(args.action, paths));
  return EXIT.ok;
}
