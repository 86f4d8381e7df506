import { basename } from 'node:path';
import { AirspaceError } from '../errors.js';
import { peerDiffMessages } from '../messages/agent-views.js';
import { sanitizeText } from '../report/sanitize-text.js';
import type { LineOfWork } from '../traffic/line-of-work.js';

/**
 * Which peer the user meant: the exact id first, then a branch name, a worktree path or folder
 * name (`worktree:<folder>-<hash>` ids are long to type). Null when nothing local matches (the
 * caller then looks at beacons); ambiguity is a usage error naming the candidates.
 */
export function matchPeer(input: string, traffic: readonly LineOfWork[]): LineOfWork | null {
  const exact = traffic.find((line) => line.id === input);
  if (exact) return exact;
  const loose = traffic.filter(
    (line) =>
      line.branch === input ||
      line.branch === `refs/heads/${input}` ||
      (line.worktreePath !== undefined && (line.worktreePath === input || basename(line.worktreePath) === input)),
  );
  if (loose.length > 1)
    throw new AirspaceError(
      'usage',
      'peer-ambiguous',
      peerDiffMessages.ambiguous(
        sanitizeText(input),
        loose.map((l) => sanitizeText(l.id)),
      ),
    );
  return loose[0] ?? null;
}
