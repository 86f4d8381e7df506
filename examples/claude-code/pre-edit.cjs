#!/usr/bin/env node
// Claude Code PreToolUse hook (`.claude/settings.json`, matcher `Edit|MultiEdit|Write|NotebookEdit`):
// the edit check of examples/agent-hooks/edit-check.cjs in Claude Code's contract. Input: JSON on
// stdin with `cwd` and the file in `tool_input.file_path` (`notebook_path` for NotebookEdit).
// Output: exit 2 blocks the tool call and feeds stderr to the model; exit 0 lets it run (stdout is
// shown in the transcript); any other exit is a non-blocking error (stderr shown to the user, the
// edit goes ahead) — our own failures are that: one line, exit 1, never a stack trace.
//
// CommonJS: the edit check runs at every edit, and Node starts a CommonJS script sooner than an ES
// module (docs/decisions/resident.md, "The CommonJS hot path"). `install --claude-code` points at
// this file; pre-edit.mjs beside it runs it for settings written by earlier releases.
'use strict';
const { answer, describe, editCheck, readHookInput, stringField } = require('../agent-hooks/edit-check.cjs');

async function main() {
  const input = await readHookInput('Claude Code PreToolUse');
  const cwd = stringField(input, 'cwd') ?? process.cwd();
  const file = stringField(input.tool_input, 'file_path', 'notebook_path');
  const result = await editCheck({ cwd, targets: file === null ? null : [file] });

  if (result.verdict === 'steer') answer({ stderr: describe(result), exit: 2 });
  if (result.verdict === 'traffic') answer({ stdout: describe(result) });
  answer({});
}

main();
