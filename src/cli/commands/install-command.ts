import { install, uninstall } from '../../install/index.js';
import { formatInstallResult, formatUninstallResult } from '../../messages/install.js';
import { EXIT } from '../../errors.js';
import { graphBuildMessages } from '../../messages/graph-build.js';
import type { Output } from '../../report/output.js';

/** `install`: exit 0 when the hooks will run (or a manager snippet was printed), 2 when the user must act. */
export async function installCommand(cwd: string, args: { force: boolean }, output: Output): Promise<number> {
  const result = await install(cwd, { force: args.force });
  output.out(formatInstallResult(result, cwd));
  if (result.ok) {
    // The first import graph is built off the critical path, so the first push does not wait for it.
    const build = await (await import('../../run/build-graph.js')).startGraphBuild(cwd);
    if (build?.started) output.err(graphBuildMessages.status(build.status, false));
  }
  return result.ok ? EXIT.ok : EXIT.error;
}

export async function uninstallCommand(cwd: string, output: Output): Promise<number> {
  const result = await uninstall(cwd);
  output.out(formatUninstallResult(result, cwd));
  return EXIT.ok;
}
