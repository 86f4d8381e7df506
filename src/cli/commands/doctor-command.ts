import { EXIT } from '../../errors.js';
import { formatInstallFindings } from '../../messages/setup.js';
import type { Output } from '../../report/output.js';
import { diagnose } from '../../app/doctor.js';
import { jsonText } from '../../report/sanitize-text.js';

/** `doctor`: exit 0 when everything needed works, 2 when something is broken. */
export async function doctorCommand(cwd: string, args: { json: boolean }, output: Output): Promise<number> {
  const { findings, installation, packageManager, cli } = await diagnose(cwd);
  const broken = findings.some((f) => f.level === 'error') || installation.some((f) => f.level === 'error');
  if (args.json) {
    output.out(jsonText({ ok: !broken, findings, installation }));
    return broken ? EXIT.error : EXIT.ok;
  }
  const s = output.style;
  const mark = { ok: s.green('✓'), warn: s.yellow('!'), error: s.red('✗') } as const;
  const lines = findings.flatMap((f) => [`${mark[f.level]} ${f.topic}: ${f.text}`, ...(f.fix ? [s.dim(`    fix: ${f.fix}`)] : [])]);
  if (installation.length > 0) lines.push(formatInstallFindings(installation, cwd, packageManager?.name, cli));
  output.out(lines.join('\n'));
  return broken ? EXIT.error : EXIT.ok;
}
