/** Package root: the pure engine and the adapter that turns a working set into an engine agent. */
export * from './engine/index.js';
export { toAgent, toInclusiveRange, type AgentFacts } from './traffic/to-agent.js';
export type { WorkingSet, WorkingSetFile, FileStatus } from './traffic/working-set.js';
export type { AirspaceConfig, ModelOverrides } from './config/defaults.js';
