#!/usr/bin/env node
// Cursor preToolUse hook (`.cursor/hooks.json`, matcher `Write|Delete`): the edit check of
// examples/agent-hooks/edit-check.mjs in Cursor's contract. Input: JSON on stdin with `tool_name`,
// `tool_input` (the file in `file_path`; `path` and `target_file` are read too), `cwd` and
// `workspace_roots`. Output: JSON on stdout, `permission` "allow" or "deny", `user_message` for the
// person, `agent_message` for the model. Exit 1 is a hook failure: Cursor goes ahead (fail open).
import { answer, describe, editCheck, readHookInput, stringField } from '../agent-hooks/edit-check.mjs';

const input = await readHookInput('Cursor preToolUse');
const roots = Array.isArray(input.workspace_roots) ? input.workspace_roots.filter((root) => typeof root === 'string' && root !== '') : [];
const cwd = stringField(input, 'cwd') ?? roots[0] ?? process.cwd();
const file = stringField(input.tool_input, 'file_path', 'path', 'target_file');
const result = await editCheck({ cwd, targets: file === null ? null : [file] });

if (result.verdict === 'steer') {
  const text = describe(result);
  answer({ stdout: JSON.stringify({ permission: 'deny', user_message: text, agent_message: text }) });
}
if (result.verdict === 'traffic') {
  const text = describe(result);
  answer({ stdout: JSON.stringify({ permission: 'allow', user_message: text, agent_message: text }) });
}
answer({ stdout: JSON.stringify({ permission: 'allow' }) });
