import { install, uninstall } from '../../install/index.js';
import { formatInstallResult, formatUninstallResult } from '../../messages/install.js';
import { EXIT } from '../../errors.js';
import type { Output } from '../../report/output.js';

/** `install`: exit 0 when the hooks will run (or a manager snippet was printed), 2 when the user must act. */
export async function installCommand(cwd: string, args: { force: boolean }, output: Output): Promise<number> {
  const result = await install(cwd, { force: args.force });
  output.out(formatInstallResult(result, cwd));
  return result.ok ? EXIT.ok : EXIT.error;
}

export async function uninstallCommand(cwd: string, output: Output): Promise<number> {
  const result = await uninstall(cwd);
  output.out(formatUninstallResult(result, cwd));
  return EXIT.ok;
}
