import { EXIT } from '../../errors.js';
import { residentMessages as m } from '../../messages/hooks-and-check.js';
import type { Output } from '../../report/output.js';
import { jsonText } from '../../report/sanitize-text.js';
import { describeResident, residentState, serveResident, stopResident } from '../../app/resident.js';

/** `resident status|stop|serve`: status and stop exit 0; serve runs until the resident exits. */
export async function residentCommand(cwd: string, args: { action: 'status' | 'stop' | 'serve'; json: boolean }, output: Output): Promise<number> {
  if (args.action === 'serve') return serveResident(cwd, (line) => output.err(line));
  if (args.action === 'stop') {
    output.out((await stopResident(cwd)) ? m.stopped : m.notRunning);
    return EXIT.ok;
  }
  const state = await residentState(cwd);
  output.out(args.json ? jsonText(state) : describeResident(state));
  return EXIT.ok;
}
