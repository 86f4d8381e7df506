import { AirspaceError } from '../errors.js';
import { gitObjectMessages } from '../messages/command-line.js';
import { BatchCommandReader, type ObjectAnswer, type ObjectCommand, type ObjectContents, type ObjectInfo } from './batch-command-output.js';
import { runGit } from './exec-git.js';
import { ObjectSession } from './object-session.js';
import { currentRunSignal, runResource } from './run-scope.js';

/**
 * Objects straight from the object store: `info` (type and size) and `contents`, many per request.
 * Inside a run every request goes to the run's one `cat-file --batch-command` process
 * (src/git/object-session.ts); outside a run (a library call) a request is one process of its own,
 * speaking the same protocol.
 *
 * Names come from untrusted places (a beacon's base, a peer's file paths): only an object id, the
 * id peeled to a commit (`<id>^{commit}`), or the id and a path (`<id>:<path>`) is sent, one per
 * line — a line break would start a second command. Any other name is answered null unasked.
 */
export type { ObjectContents, ObjectInfo } from './batch-command-output.js';

export interface ReadObjectsOptions {
  /** Cap on the request's bytes (content bytes in a run's session, stdout of a request alone). */
  readonly maxBytes?: number;
  readonly timeoutMs?: number;
}

const NAME = /^[0-9a-f]{40}(?:[0-9a-f]{24})?(?:\^\{commit\}|:[^\n\r\0]+)?$/;
const DEFAULT_MAX_BYTES = 256 * 1024 * 1024;

/** Whether `name` may be sent to git (see above). */
export function isObjectName(name: string): boolean {
  return NAME.test(name);
}

/** Type and size of each named object, in order; null when it does not exist (or cannot be asked). */
export async function objectInfo(cwd: string, names: readonly string[], options: ReadObjectsOptions = {}): Promise<(ObjectInfo | null)[]> {
  return readObjects(cwd, 'info', names, options);
}

/** Each named object with its content, in order; null when it does not exist (or cannot be asked). */
export async function objectContents(cwd: string, names: readonly string[], options: ReadObjectsOptions = {}): Promise<(ObjectContents | null)[]> {
  return (await readObjects(cwd, 'contents', names, options)) as (ObjectContents | null)[];
}

async function readObjects(cwd: string, command: ObjectCommand, names: readonly string[], options: ReadObjectsOptions): Promise<ObjectAnswer[]> {
  const results: ObjectAnswer[] = names.map(() => null);
  const asked = names.flatMap((name, index) => (isObjectName(name) ? [{ name, index }] : []));
  if (asked.length === 0) return results;
  const commands = asked.map(({ name }) => ({ command, name }));
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const signal = currentRunSignal();
  const session = runResource(`cat-file ${cwd}`, (runSignal, forget) => new ObjectSession(cwd, runSignal, forget));
  const answers = session
    ? await session.ask({ commands, maxBytes, signal, ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}) })
    : await askAlone(cwd, commands, maxBytes, options.timeoutMs);
  asked.forEach(({ index }, i) => {
    results[index] = answers[i] ?? null;
  });
  return results;
}

/** One process for one request: the same commands and reader, stdin written at once. */
async function askAlone(
  cwd: string,
  commands: readonly { command: ObjectCommand; name: string }[],
  maxBytes: number,
  timeoutMs: number | undefined,
): Promise<ObjectAnswer[]> {
  const { stdout } = await runGit(['cat-file', '--batch-command'], {
    cwd,
    input: commands.map((c) => `${c.command} ${c.name}\n`).join(''),
    maxBytes,
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
  });
  const answers: ObjectAnswer[] = [];
  const reader = new BatchCommandReader({
    next: () => commands[answers.length]?.command,
    keep: () => true,
    answer: (answer) => answers.push(answer),
  });
  if (!reader.push(stdout)) throw new AirspaceError('git', 'git-failed', gitObjectMessages.unasked);
  if (answers.length < commands.length) throw new AirspaceError('git', 'git-failed', gitObjectMessages.endedEarly);
  return answers;
}
