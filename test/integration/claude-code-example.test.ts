import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { commitAll, gitIn, pathWithCli, PROJECT_ROOT, remoteWithClones, removeDir, testEnv, writeFiles } from '../helpers/temp-repo.js';

/**
 * examples/claude-code/pre-edit.mjs as Claude Code runs it: the tool call arrives as JSON on stdin;
 * exit 2 blocks the edit and feeds stderr to the model, exit 0 lets it run.
 */
const numbered = (n: number) => `${Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n')}\n`;
const setup = remoteWithClones({ 'src/session.ts': numbered(60), 'src/billing.ts': numbered(20) }, 2);
const [holder, agent] = setup.clones as [string, string];
afterAll(() => removeDir(setup.root));

function preEdit(cwd: string, file: string) {
  const input = JSON.stringify({ hook_event_name: 'PreToolUse', cwd, tool_name: 'Edit', tool_input: { file_path: join(cwd, file) } });
  return spawnSync(process.execPath, [join(PROJECT_ROOT, 'examples', 'claude-code', 'pre-edit.mjs')], {
    cwd,
    input,
    env: testEnv({ PATH: pathWithCli() }),
    encoding: 'utf8',
    timeout: 60_000,
  });
}

describe('the Claude Code PreToolUse example', () => {
  it('blocks an edit of a file where this agent must steer (withdrawing its intent), lets other edits through, and declares intent', () => {
    gitIn(holder, 'switch', '-q', '-c', 'holder/work');
    writeFiles(holder, { 'src/session.ts': numbered(60).replace('line 7\n', 'line 7 holder\n') });
    commitAll(holder, 'holder: session work');
    gitIn(holder, 'push', '-q', 'origin', 'holder/work');
    gitIn(agent, 'switch', '-q', '-c', 'agent/work');
    writeFiles(agent, { 'src/session.ts': numbered(60).replace('line 7\n', 'line 7 agent\n') });
    gitIn(agent, 'fetch', '-q', 'origin');

    const blocked = preEdit(agent, 'src/session.ts');
    expect(blocked.status, blocked.stderr).toBe(2);
    expect(blocked.stderr).toContain('editing src/session.ts would collide with another agent');
    expect(blocked.stderr).toContain('RA with holder/work');

    const elsewhere = preEdit(agent, 'src/billing.ts');
    expect(elsewhere.status, elsewhere.stderr).toBe(0);
    const intent = spawnSync(process.execPath, [join(PROJECT_ROOT, 'bin', 'airspace-hooks.js'), 'intent', 'list'], {
      cwd: agent,
      env: testEnv(),
      encoding: 'utf8',
    });
    expect(intent.stdout).not.toContain('src/session.ts');
    expect(intent.stdout).toContain('src/billing.ts');
  });
});
