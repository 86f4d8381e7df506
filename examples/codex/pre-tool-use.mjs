#!/usr/bin/env node
// Codex PreToolUse hook (`.codex/hooks.json`, matcher `apply_patch|Edit|Write`): the edit check of
// examples/agent-hooks/edit-check.mjs in Codex's contract. Input: JSON on stdin with `cwd`,
// `tool_name` and, for `apply_patch`, the patch text in `tool_input.command` (`patch` and `input`
// are read too); the files it writes are its `*** Add File:`, `*** Update File:`, `*** Delete File:`
// and `*** Move to:` lines, relative to `cwd`. Output: JSON on stdout;
// `hookSpecificOutput.permissionDecision: "deny"` with `permissionDecisionReason` refuses the call
// and shows the reason to the model; `systemMessage` is a warning for the person. Exit 1 is a
// failed hook: Codex goes ahead.
import { answer, describe, editCheck, readHookInput, stringField } from '../agent-hooks/edit-check.mjs';

const FILE_LINE = /^\*\*\* (?:Add File|Update File|Delete File|Move to): (.+)$/;

/** The paths an apply_patch body writes, or null when it names none. */
function patchedFiles(patch) {
  const files = [];
  for (const line of patch.split(/\r?\n/)) {
    const match = FILE_LINE.exec(line);
    if (match) files.push(match[1].trim());
  }
  return files.length > 0 ? files : null;
}

const input = await readHookInput('Codex PreToolUse');
const cwd = stringField(input, 'cwd') ?? process.cwd();
const file = stringField(input.tool_input, 'file_path', 'path');
const patch = typeof input.tool_input === 'string' ? input.tool_input : stringField(input.tool_input, 'command', 'patch', 'input');
const targets = file !== null ? [file] : patch !== null ? patchedFiles(patch) : null;
const result = await editCheck({ cwd, targets });

if (result.verdict === 'steer') {
  const reason = describe(result);
  answer({ stdout: JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason } }) });
}
// No permissionDecision on the way through: "allow" would skip Codex's own approval prompts.
if (result.verdict === 'traffic') answer({ stdout: JSON.stringify({ systemMessage: describe(result) }) });
answer({});
