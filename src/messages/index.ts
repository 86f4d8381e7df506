/**
 * All user-facing text lives under src/messages, one file per layer, re-exported here, so the
 * wording is reviewable in one place and every blocking message carries its bypass.
 */
export {};
