/**
 * Hook installation: put our git hooks where this repository runs hooks, take them out again,
 * and check that they will run. Results are data; src/messages/setup.ts words them.
 */
export { install } from './install.js';
export { uninstall } from './uninstall.js';
export { inspectInstallation } from './inspect-installation.js';
export { detectPackageManager, type PackageManager, type PackageManagerName } from './package-manager.js';
export type {
  HookAction,
  InstallFinding,
  InstallResult,
  ManagerSnippet,
  UninstallAction,
  UninstallResult,
} from './types.js';
