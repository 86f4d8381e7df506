#!/usr/bin/env node
// Gemini CLI BeforeTool hook (`.gemini/settings.json`, matcher `write_file|replace`): the edit check
// of examples/agent-hooks/edit-check.mjs in Gemini CLI's contract. Input: JSON on stdin with `cwd`,
// `tool_name`, `tool_input.file_path`. Output: stdout holds JSON and nothing else; `decision: "deny"`
// with `reason` refuses the tool call and sends the reason to the model, `systemMessage` is shown
// to the person. Exit 1 is a warning: the CLI goes ahead.
import { answer, describe, editCheck, readHookInput, stringField } from '../agent-hooks/edit-check.mjs';

const input = await readHookInput('Gemini CLI BeforeTool');
const cwd = stringField(input, 'cwd') ?? process.env.GEMINI_PROJECT_DIR ?? process.cwd();
const file = stringField(input.tool_input, 'file_path', 'absolute_path', 'path');
const result = await editCheck({ cwd, targets: file === null ? null : [file] });

if (result.verdict === 'steer') {
  const text = describe(result);
  answer({ stdout: JSON.stringify({ decision: 'deny', reason: text, systemMessage: text }) });
}
// No `decision` on the way through: an explicit "allow" could skip the user's own confirmation.
if (result.verdict === 'traffic') answer({ stdout: JSON.stringify({ systemMessage: describe(result) }) });
answer({ stdout: '{}' });
