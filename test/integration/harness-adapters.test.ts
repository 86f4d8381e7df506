import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitAll, gitIn, initRepo, PROJECT_ROOT, removeDir, runCli, testEnv, writeFiles } from '../helpers/temp-repo.js';

/**
 * The Cursor, Gemini CLI and Codex adapters (examples/<harness>/) as each harness runs them: its
 * documented hook input on stdin, in a real repository whose peer worktree has committed work, so
 * that a Traffic Advisory and a Resolution Advisory really happen; the answer in that harness's
 * format and exit code (docs/decisions/agent-harnesses.md).
 */
const numbered = (n: number) => `${Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n')}\n`;
let main = '';
let agent = '';
beforeAll(() => {
  main = initRepo({ 'src/session.ts': numbered(60), 'src/billing.ts': numbered(20), 'src/other.ts': numbered(20) });
  const peer = `${main}-peer`;
  agent = `${main}-agent`;
  gitIn(main, 'worktree', 'add', '-q', peer, '-b', 'peer/work');
  gitIn(main, 'worktree', 'add', '-q', agent, '-b', 'agent/work');
  writeFiles(peer, {
    'src/session.ts': numbered(60).replace('line 7\n', 'line 7 peer\n'),
    'src/billing.ts': numbered(20).replace('line 5\n', 'line 5 peer\n'),
  });
  commitAll(peer, 'peer: session and billing work');
});
afterAll(() => {
  for (const dir of [main, `${main}-peer`, `${main}-agent`]) removeDir(dir);
});

type Harness = 'cursor' | 'gemini' | 'codex';
const SCRIPTS: Record<Harness, string> = {
  cursor: join('examples', 'cursor', 'pre-tool-use.mjs'),
  gemini: join('examples', 'gemini', 'before-tool.mjs'),
  codex: join('examples', 'codex', 'pre-tool-use.mjs'),
};

/** The input each harness documents for an edit of `file` (absolute for Cursor and Gemini CLI, a patch relative to cwd for Codex). */
function inputFor(harness: Harness, cwd: string, file: string): string {
  if (harness === 'cursor') {
    return JSON.stringify({
      conversation_id: 'conversation-1',
      generation_id: 'generation-1',
      model: 'claude-sonnet-4',
      hook_event_name: 'preToolUse',
      cursor_version: '2.1.0',
      workspace_roots: [cwd],
      user_email: null,
      transcript_path: null,
      tool_name: 'Write',
      tool_input: { file_path: join(cwd, file), contents: 'new\n' },
      tool_use_id: 'tool-1',
      cwd,
      agent_message: 'Editing the file',
    });
  }
  if (harness === 'gemini') {
    return JSON.stringify({
      session_id: 'session-1',
      transcript_path: join(cwd, '..', 'transcript.json'),
      cwd,
      hook_event_name: 'BeforeTool',
      timestamp: '2026-12-01T10:30:00Z',
      tool_name: 'replace',
      tool_input: { file_path: join(cwd, file), old_string: 'line 7', new_string: 'line 7 agent' },
    });
  }
  const patch = `*** Begin Patch\n*** Update File: ${file}\n@@\n-line 7\n+line 7 agent\n*** End Patch\n`;
  return JSON.stringify({
    session_id: 'session-1',
    turn_id: 'turn-1',
    transcript_path: null,
    cwd,
    hook_event_name: 'PreToolUse',
    model: 'gpt-5',
    permission_mode: 'default',
    tool_name: 'apply_patch',
    tool_input: { command: patch },
    tool_use_id: 'call-1',
  });
}

function runAdapter(harness: Harness, input: string, cwd = agent) {
  return spawnSync(process.execPath, [join(PROJECT_ROOT, SCRIPTS[harness])], { cwd, input, env: testEnv(), encoding: 'utf8', timeout: 60_000 });
}

/** What the harness reads: allowed or not, and the text the model and the person get. */
function verdictOf(harness: Harness, stdout: string): { denied: boolean; text: string } {
  const out = stdout.trim() === '' ? {} : JSON.parse(stdout);
  if (harness === 'cursor') return { denied: out.permission === 'deny', text: `${out.agent_message ?? ''}` };
  if (harness === 'gemini') return { denied: out.decision === 'deny', text: `${out.reason ?? out.systemMessage ?? ''}` };
  const specific = out.hookSpecificOutput ?? {};
  return { denied: specific.permissionDecision === 'deny', text: `${specific.permissionDecisionReason ?? out.systemMessage ?? ''}` };
}

const intents = () => runCli(agent, ['intent', 'list']).stdout;
const HARNESSES: Harness[] = ['cursor', 'gemini', 'codex'];

describe.each(HARNESSES)('the %s adapter', (harness) => {
  it('lets an edit near a peer through with the traffic (TA), and declares the file as intent', () => {
    runCli(agent, ['intent', 'clear']);
    const result = runAdapter(harness, inputFor(harness, agent, 'src/billing.ts'));
    expect(result.status, result.stderr).toBe(0);
    const verdict = verdictOf(harness, result.stdout);
    expect(verdict.denied).toBe(false);
    expect(verdict.text).toContain('TA with peer/work');
    expect(verdict.text).toContain('src/billing.ts');
    expect(intents()).toContain('src/billing.ts');
  });

  it('refuses an edit that collides with the peer where this agent must steer (RA), with the reason, and withdraws its intent', () => {
    runCli(agent, ['intent', 'clear']);
    writeFiles(agent, { 'src/session.ts': numbered(60).replace('line 7\n', 'line 7 agent\n') });
    try {
      const result = runAdapter(harness, inputFor(harness, agent, 'src/session.ts'));
      expect(result.status, result.stderr).toBe(0);
      const verdict = verdictOf(harness, result.stdout);
      expect(verdict.denied).toBe(true);
      expect(verdict.text).toContain('editing src/session.ts would collide with another agent');
      expect(verdict.text).toContain('RA with peer/work');
      expect(intents()).not.toContain('src/session.ts');
    } finally {
      gitIn(agent, 'checkout', '--', 'src/session.ts');
    }
  });

  it('lets an edit outside the worktree through quietly', () => {
    const result = runAdapter(harness, inputFor(harness, join(main, '..'), 'elsewhere.txt'), join(main, '..'));
    expect(result.status, result.stderr).toBe(0);
    expect(verdictOf(harness, result.stdout).denied).toBe(false);
  });

  it('answers malformed input with one line and a non-blocking exit, never a stack trace', () => {
    const result = runAdapter(harness, '{ not json');
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/^airspace-hooks: the hook input is not JSON .*, edit not checked\n$/);
  });
});

describe('the Codex adapter', () => {
  it('reads every file a patch writes, relative to the cwd Codex gives (a subfolder here)', () => {
    runCli(agent, ['intent', 'clear']);
    const patch = '*** Begin Patch\n*** Add File: new.ts\n+export {};\n*** Update File: other.ts\n*** Move to: moved.ts\n@@\n-line 1\n+line 1\n*** End Patch\n';
    const input = JSON.stringify({ hook_event_name: 'PreToolUse', cwd: join(agent, 'src'), tool_name: 'apply_patch', tool_input: { command: patch } });
    const result = runAdapter('codex', input, join(agent, 'src'));
    expect(result.status, result.stderr).toBe(0);
    const listed = intents();
    for (const file of ['src/new.ts', 'src/other.ts', 'src/moved.ts']) expect(listed).toContain(file);
  });

  it('leaves out a file the patch names outside the worktree, and lets an edit of only such files through quietly', () => {
    runCli(agent, ['intent', 'clear']);
    const patch = '*** Begin Patch\n*** Update File: ../../outside.txt\n@@\n-a\n+b\n*** End Patch\n';
    const input = JSON.stringify({ hook_event_name: 'PreToolUse', cwd: join(agent, 'src'), tool_name: 'apply_patch', tool_input: { command: patch } });
    const result = runAdapter('codex', input, join(agent, 'src'));
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toBe('');
    expect(intents()).not.toContain('outside.txt');
  });
});

describe('the Cursor adapter', () => {
  it('without a cwd in the input, checks in the first workspace root', () => {
    runCli(agent, ['intent', 'clear']);
    const input = JSON.stringify({
      hook_event_name: 'preToolUse',
      workspace_roots: [agent],
      tool_name: 'Write',
      tool_input: { file_path: join(agent, 'src/billing.ts') },
    });
    const result = runAdapter('cursor', input, join(main, '..'));
    expect(result.status, result.stderr).toBe(0);
    expect(verdictOf('cursor', result.stdout).text).toContain('TA with peer/work');
  });
});
