/** The working directory, or null when it was deleted under the process (node's `process.cwd()` then throws ENOENT). */
export function currentDirectory(): string | null {
  try {
    return process.cwd();
  } catch {
    return null;
  }
}
