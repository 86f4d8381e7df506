import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { HookName } from './types.js';
import { stampFingerprint } from './fingerprint.js';

/**
 * The package's own files: its version and the shim templates in hooks/. Both resolve from this
 * module's location (src/install or dist/install, two levels below the package root), so they
 * work from a checkout and from an installed tarball alike.
 */
const ROOT = new URL('../../', import.meta.url);

let cachedVersion: string | undefined;

export function packageVersion(): string {
  if (cachedVersion === undefined) {
    const pkg = JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')) as { version?: unknown };
    cachedVersion = typeof pkg.version === 'string' ? pkg.version : '0.0.0';
  }
  return cachedVersion;
}

export function shimTemplatePath(hook: HookName): string {
  return fileURLToPath(new URL(`hooks/${hook}`, ROOT));
}

/** The exact bytes install writes for `hook`: the template with its fingerprint stamped. */
export function shimText(hook: HookName): string {
  return stampFingerprint(readFileSync(shimTemplatePath(hook), 'utf8'), packageVersion());
}
