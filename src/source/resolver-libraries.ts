import type { createPathsMatcher } from 'get-tsconfig';
import type JSON5 from 'json5';
import type picomatch from 'picomatch';
import type { exports as exportTargets } from 'resolve.exports';

/**
 * The libraries of the one import resolver, imported on first use only: a hook that follows no
 * package import must not load them (the hook bundle keeps them external, scripts/bundle-hook.mjs;
 * json5's Unicode tables alone cost a hook's start-up tens of milliseconds).
 */
export interface ResolverLibraries {
  readonly parseJsonc: (typeof JSON5)['parse'];
  readonly createPathsMatcher: typeof createPathsMatcher;
  readonly picomatch: typeof picomatch;
  readonly exportTargets: typeof exportTargets;
}

let loading: Promise<ResolverLibraries> | undefined;

export function loadResolverLibraries(): Promise<ResolverLibraries> {
  loading ??= Promise.all([import('json5'), import('get-tsconfig'), import('picomatch'), import('resolve.exports')]).then(
    ([json5, tsconfig, glob, exportsMap]) => ({
      parseJsonc: json5.default.parse,
      createPathsMatcher: tsconfig.createPathsMatcher,
      picomatch: glob.default,
      exportTargets: exportsMap.exports,
    }),
  );
  return loading;
}
