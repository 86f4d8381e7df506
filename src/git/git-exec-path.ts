import { resolve } from 'node:path';
import { git } from './exec-git.js';

let asked: Promise<string> | undefined;

/**
 * The directory of git's own programs as the git on PATH was built with (`git --exec-path`, an
 * empty GIT_EXEC_PATH counts as unset): git exports it to its hooks as GIT_EXEC_PATH and puts it
 * first on their PATH. Asked once per process; a failed ask is asked again next time.
 */
export function gitExecPath(): Promise<string> {
  asked ??= git(['--exec-path'], { cwd: '/', env: { GIT_EXEC_PATH: '' } })
    .then((path) => resolve(path.trim()))
    .catch((error: unknown) => {
      asked = undefined;
      throw error;
    });
  return asked;
}
