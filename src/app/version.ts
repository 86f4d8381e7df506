/** `--version` and the MCP server's name: the installed package's version, read without running git. */
export { packageVersion } from '../install/package-files.js';
