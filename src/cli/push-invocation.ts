import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

/**
 * Whether the `git push` that runs this pre-push hook is a dry run. git runs pre-push for
 * `git push --dry-run` too and tells the hook nothing of it (its arguments are the remote's name and
 * url, its stdin the refs), so a dry run published this agent's beacon announcing a push that never
 * came, and a peer with the right of way steered from it for the announce's minute. The hook's
 * ancestors are read instead: the shim's shell, husky's shells or npx sit between it and git.
 * Only Linux's /proc is read; elsewhere the answer is false, the behaviour before this check.
 */
export function pushIsDryRun(startPid: number = process.ppid, read: (path: string) => string | null = readProc): boolean {
  let pid = startPid;
  for (let depth = 0; depth < MAX_ANCESTORS && pid > 1; depth++) {
    const cmdline = read(`/proc/${pid}/cmdline`);
    if (cmdline === null) return false;
    const dryRun = dryRunOfPushArgs(cmdline.split('\0').filter((arg, i, all) => arg !== '' || i < all.length - 1));
    if (dryRun !== null) return dryRun;
    const parent = parentOf(read(`/proc/${pid}/stat`));
    if (parent === null) return false;
    pid = parent;
  }
  return false;
}

/** Hook → shim shell → git, or hook → npx → husky's two shells → git, with room to spare. */
const MAX_ANCESTORS = 8;

/**
 * For a `git … push …` command line, whether it is a dry run (the last of `--dry-run`/`-n` and
 * `--no-dry-run` wins, as git's option parser decides); null for any other command line.
 */
export function dryRunOfPushArgs(argv: readonly string[]): boolean | null {
  if (argv.length === 0 || !/^git(?:\.exe)?$/.test(basename(argv[0]!))) return null;
  let at = 1;
  // git's own options before the command; these take their value as the next argument.
  while (at < argv.length && argv[at]!.startsWith('-')) at += GIT_OPTIONS_WITH_VALUE.has(argv[at]!) ? 2 : 1;
  if (argv[at] !== 'push') return null;
  let dryRun = false;
  for (let i = at + 1; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') break;
    if (arg.startsWith('--')) {
      const [name = ''] = arg.slice(2).split('=', 1);
      // git accepts any unambiguous prefix of a long option: `--dry` is `--dry-run`.
      if (name.length >= 2 && 'dry-run'.startsWith(name)) dryRun = true;
      else if (name.length >= 5 && 'no-dry-run'.startsWith(name)) dryRun = false;
      else if (!arg.includes('=') && PUSH_OPTIONS_WITH_VALUE.has(name)) i++;
      continue;
    }
    if (arg.startsWith('-') && arg.length > 1) {
      // Bundled short options (`-nv`); `-o` takes the rest, or the next argument, as its value.
      for (let c = 1; c < arg.length; c++) {
        if (arg[c] === 'n') dryRun = true;
        if (arg[c] === 'o') {
          if (c === arg.length - 1) i++;
          break;
        }
      }
    }
  }
  return dryRun;
}

const GIT_OPTIONS_WITH_VALUE = new Set(['-c', '-C', '--git-dir', '--work-tree', '--namespace', '--config-env', '--super-prefix', '--exec-path']);
const PUSH_OPTIONS_WITH_VALUE = new Set(['repo', 'receive-pack', 'exec', 'push-option']);

/** The parent pid from /proc/<pid>/stat: the field after the command, which may hold spaces and parentheses. */
function parentOf(stat: string | null): number | null {
  if (stat === null) return null;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const parent = Number(fields[1]);
  return Number.isInteger(parent) && parent > 0 ? parent : null;
}

function readProc(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}
