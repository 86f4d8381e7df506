/**
 * All user-facing text lives under src/messages, one file per layer, re-exported here, so the
 * wording is reviewable in one place and every blocking message carries its bypass.
 */
export * from './beacon.js';
export { BYPASS, checkMessages, formatAge } from './check.js';
export { cliMessages } from './cli.js';
export { configMessages } from './config.js';
export { demoMessages } from './demo.js';
export { doctorMessages } from './doctor.js';
export * from './eval.js';
export { gitMessages } from './git.js';
export { argumentMessages } from './git-argument.js';
export { graphMessages } from './graph.js';
export { hookMessages } from './hook.js';
export * from './install.js';
export { intentMessages } from './intent.js';
export * from './radar.js';
export { runMessages } from './run.js';
export { replayMessages } from './replay.js';
