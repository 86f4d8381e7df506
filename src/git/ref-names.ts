/**
 * Names that come from outside (the pre-push hook's stdin and arguments, config, beacons) and end
 * up in git's argv or in a refspec. A name git could read as an option, or that is not a valid ref
 * component, is refused before any git call sees it (git check-ref-format's rules, kept pure so the
 * hook pays no process for them).
 */
const FORBIDDEN = /[\u0000-\u0020\u007f~^:?*[\\]/;

export function isBranchName(name: string): boolean {
  if (name.length === 0 || name.length > 255 || name.startsWith('-') || name.startsWith('/') || name.endsWith('/') || name.endsWith('.')) return false;
  if (FORBIDDEN.test(name) || name.includes('..') || name.includes('@{') || name.includes('//') || name === '@') return false;
  return name.split('/').every((part) => part !== '' && !part.startsWith('.') && !part.endsWith('.lock'));
}

/** A configured remote's name (not a URL or a path): what `refs/remotes/<name>/*` can hold. */
export function isRemoteName(name: string): boolean {
  return /^[A-Za-z0-9_][A-Za-z0-9._-]{0,99}$/.test(name) && !name.endsWith('.lock') && !name.includes('..');
}
