import { EXIT } from '../../errors.js';
import { residentMessages as m } from '../../messages/hooks-and-check.js';
import type { Output } from '../../report/output.js';
import { jsonText } from '../../report/sanitize-text.js';
import { describeResident, residentState, serveResident, stopResident } from '../../app/resident.js';

/** How long a stopped resident may take to end by itself before it is ended. */
const EXIT_GRACE_MS = 1_000;

/** `resident status|stop|serve`: status and stop exit 0; serve runs until the resident exits. */
export async function residentCommand(cwd: string, args: { action: 'status' | 'stop' | 'serve'; json: boolean }, output: Output): Promise<number> {
  if (args.action === 'serve') {
    const code = await serveResident(cwd, (line) => output.err(line));
    // The resident has stopped everything it started; what a library left armed must not keep the
    // process alive. chokidar 5 can arm a watch after its close(): files removed while the repository
    // goes make it "watch for their return" up to the nearest folder still there (/tmp), and that
    // watch, never closed, kept a stopped resident at 7–24 % of a core for good
    // (test/integration/resident-repository-removed.test.ts). Unref'd: a clean exit does not wait for it.
    setTimeout(() => process.exit(code), EXIT_GRACE_MS).unref();
    return code;
  }
  if (args.action === 'stop') {
    output.out((await stopResident(cwd)) ? m.stopped : m.notRunning);
    return EXIT.ok;
  }
  const state = await residentState(cwd);
  output.out(args.json ? jsonText(state) : describeResident(state));
  return EXIT.ok;
}
