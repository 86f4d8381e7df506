/**
 * Values from outside (a committed config file, CLI arguments, a peer's beacon, a remote's ref
 * names) that end up in git's argv. A value git could read as an option (`--upload-pack=…` runs
 * a command on fetch) or that breaks a line-based stdin protocol (a newline in a revision) is
 * refused here, before any git process starts; the call sites add `--end-of-options` as well, so a
 * value that slipped through would still be read as a name, never as an option.
 * Pure predicates; ref and remote names are src/git/ref-names.ts's (the config schema uses them too).
 */
import { AirspaceError } from '../errors.js';
import { argumentMessages } from '../messages/command-line.js';
import { isBranchName, isRemoteName } from './ref-names.js';

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what this pattern finds
const CONTROL = /[\u0000-\u001f\u007f]/;
const MAX_LENGTH = 1024;

/**
 * A revision given by a user (`--agent NAME=REV`, `--at REV`): anything git may parse as a
 * revision (`HEAD~3`, `main@{1}`, `:/fix`), but never an option and never more than one line.
 */
function isRevision(value: string): boolean {
  return value.length > 0 && value.length <= MAX_LENGTH && !value.startsWith('-') && !CONTROL.test(value);
}

export type ArgumentKind = 'remote' | 'trunk' | 'revision' | 'agent';

/** Throws the one-line usage error (exit 2) unless `value` is safe as a `kind`. */
export function requireSafe(kind: ArgumentKind, value: string, source?: string): string {
  const ok = kind === 'remote' ? isRemoteName(value) : kind === 'trunk' ? isBranchName(value) : kind === 'revision' ? isRevision(value) : isAgentName(value);
  if (!ok) throw new AirspaceError('usage', 'unsafe-argument', argumentMessages.refused(kind, value, source), { kind });
  return value;
}

/** An agent name from the command line: printable, one line, not option-like. */
function isAgentName(value: string): boolean {
  return value.length > 0 && value.length <= 256 && !value.startsWith('-') && !CONTROL.test(value);
}
