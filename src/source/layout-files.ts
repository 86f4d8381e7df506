/**
 * The files a workspace layout (src/source/workspace-layout.ts) is read from: package.json,
 * pnpm-workspace.yaml, tsconfig*.json and jsconfig.json. Apart from the layout's parsers, so that
 * listing a tree's files (a hook's warm path) loads none of them.
 */
export function isLayoutPath(path: string): boolean {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return name === 'package.json' || name === 'pnpm-workspace.yaml' || /^tsconfig(?:\..+)?\.json$/.test(name) || name === 'jsconfig.json';
}
