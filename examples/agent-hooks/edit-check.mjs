// The edit check for the ES-module adapters (examples/cursor, examples/gemini, examples/codex): the
// implementation is examples/agent-hooks/edit-check.cjs, written once, as CommonJS so the Claude
// Code entry (examples/claude-code/pre-edit.cjs) starts no ES module.
export { answer, describe, editCheck, failOpen, readHookInput, stringField } from './edit-check.cjs';
