import { mkdtemp, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { StoryStep } from '../../app/demo.js';
import { EXIT } from '../../errors.js';
import { demoMessages as m } from '../../messages/agent-views.js';
import type { Output } from '../../report/output.js';
import { jsonText } from '../../report/sanitize-text.js';
import { playDemo } from '../../app/demo.js';

/** `demo`: plays the story in a temp airspace, prints the timeline and writes the radar page. */
export async function demoCommand(args: { dir: string | undefined; json: boolean }, output: Output): Promise<number> {
  const root = args.dir ? resolve(args.dir) : await mkdtemp(join(tmpdir(), 'airspace-demo-'));
  await mkdir(root, { recursive: true });
  if (!args.json) output.out(m.building(root));
  const print = (step: StoryStep) => {
    if (args.json) return;
    output.out(output.style.bold(m.stepHeader(step.title, step.scan.counts.TA, step.scan.counts.RA)));
    for (const event of step.events) {
      const outcome = m.outcome(event.code);
      const tag = event.code !== undefined && event.code !== 0 ? output.style.red(outcome) : output.style.green(outcome);
      output.out(`  ${output.style.cyan(event.agent.padEnd(5))} ${event.action}  ${tag}`);
      if (event.output)
        output.out(
          event.output
            .split('\n')
            .map((line) => output.style.dim(`        ${line}`))
            .join('\n'),
        );
    }
  };
  const { result, radarFile } = await playDemo(root, print);
  if (args.json) {
    output.out(
      jsonText({ ...result, steps: result.steps.map((s) => ({ ...s, scan: { counts: s.scan.counts, advisories: s.scan.advisories } })), radar: radarFile }),
    );
  } else {
    output.out(m.summary(result.blockedPushes, result.mergeConflicts, result.landed.length, 4));
    output.out(m.radar(radarFile));
  }
  return result.mergeConflicts === 0 ? EXIT.ok : EXIT.error;
}
