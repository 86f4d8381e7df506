import { EXIT } from '../../errors.js';
import { formatAge, residentMessages as m } from '../../messages/hooks-and-check.js';
import type { Output } from '../../report/output.js';
import { jsonText, sanitizeText } from '../../report/sanitize-text.js';
import { residentState, serveResident, stopResident, type ResidentState } from '../../app/resident.js';

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

/** One line for `resident status` and doctor. */
export function describeResident(state: ResidentState): string {
  switch (state.state) {
    case 'running': {
      const s = state.status;
      return m.running(s.pid, sanitizeText(s.identity), formatAge(s.uptimeMs), sanitizeText(s.socket), s.served);
    }
    case 'other-build':
      return m.otherBuild(state.info.pid, sanitizeText(state.info.identity));
    case 'stale':
      return m.stale(state.info.pid);
    case 'none':
      return state.why === 'absent' ? m.absent : m.disabled;
  }
}
