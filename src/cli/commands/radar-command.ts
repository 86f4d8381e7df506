import { stat, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { AirspaceError, EXIT } from '../../errors.js';
import { usageMessages, cliMessages } from '../../messages/command-line.js';
import type { Output } from '../../report/output.js';
import { renderRadarHtml } from '../../report/radar-html.js';
import { serveRadar } from '../../report/radar-server.js';
import { radarSource } from '../../app/radar.js';

export interface RadarArgs {
  readonly out: string;
  readonly serve: boolean;
  readonly port: number;
  readonly intervalMs: number;
  readonly agents: readonly string[];
}

/** `radar`: the 3D view of every agent in the airspace, as a file or live on localhost. */
export async function radarCommand(cwd: string, args: RadarArgs, output: Output): Promise<number> {
  const source = await radarSource(cwd, args.agents);
  const file = resolve(cwd, args.out);
  // Checked before the scan, so a typo in --out costs no scan and reads as one line, not ENOENT.
  if (
    !args.serve &&
    !(await stat(dirname(file)).then(
      (s) => s.isDirectory(),
      () => false,
    ))
  ) {
    throw new AirspaceError('usage', 'radar-out-dir', usageMessages.radarOutDirMissing(args.out, dirname(file)));
  }
  const scan = source.scan;
  if (args.serve) {
    const server = await serveRadar({ port: args.port, scan, intervalMs: args.intervalMs });
    output.out(cliMessages.radarServing(server.url));
    await new Promise<void>((done) => {
      const stop = () => void server.close().then(done);
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    return EXIT.ok;
  }
  const { scan: result, ownship } = await scan();
  await writeFile(file, renderRadarHtml({ title: source.title, at: Date.now(), scan: result, ownship })).catch((error: NodeJS.ErrnoException) => {
    throw new AirspaceError('environment', 'radar-out-write', usageMessages.radarOutUnwritable(args.out, error.code ?? error.message));
  });
  output.out(cliMessages.radarWritten(file, result.counts.agents, result.counts.TA + result.counts.RA));
  return EXIT.ok;
}
