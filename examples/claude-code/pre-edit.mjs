#!/usr/bin/env node
// The Claude Code edit check as settings written by earlier releases of `install --claude-code` name
// it: examples/claude-code/pre-edit.cjs (what install writes now) does the work.
import './pre-edit.cjs';
