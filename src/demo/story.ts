import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ScanResult } from '../engine/index.js';
import { demoMessages as m } from '../messages/agent-views.js';
import { runAirspace } from '../run/run-airspace.js';
import { buildDemoRepo, demoGit, runCliProcess, writeTree, type DemoAgent, type DemoRepo } from './demo-repo.js';

/**
 * The scripted story the demo plays, step by step, with real git, the real installed hooks and
 * the real CLI: far apart → converging (TA, intents exchanged) → collision imminent (RA: one push
 * blocked) → the blocked agent steers → a changed signature caught before the build breaks (TA
 * from the symbol channel) → everyone lands with zero merge conflicts. Every outcome in
 * the timeline is what the tools actually did, never a scripted claim.
 */

export interface StoryEvent {
  readonly agent: string;
  readonly action: string;
  /** What happened: the exit code of the command and its output, trimmed. */
  readonly code?: number;
  readonly output?: string;
}

export interface StoryStep {
  readonly title: string;
  readonly events: StoryEvent[];
  readonly scan: ScanResult;
  readonly at: number;
}

export interface StoryResult {
  readonly root: string;
  readonly steps: StoryStep[];
  /** Pushes the pre-push hook refused, by agent. */
  readonly blockedPushes: string[];
  /** Whether any step saw a Resolution Advisory. */
  readonly resolutionAdvisory: boolean;
  /** Conflicted merges when all lines of work landed on main (0 is the goal). */
  readonly mergeConflicts: number;
  readonly landed: string[];
}

const SYNC = "import { connect } from '../api/client.js';\n\nexport function syncInvoices(user: string): string {\n  return CALL;\n}\n";

async function editLines(agent: DemoAgent, file: string, from: number, to: number, tag: string): Promise<void> {
  const path = join(agent.path, file);
  const lines = (await readFile(path, 'utf8')).split('\n');
  for (let i = from - 1; i < to && i < lines.length; i++) lines[i] = `${lines[i]} // ${tag}`;
  await writeFile(path, lines.join('\n'));
}

export async function playStory(root: string, onStep: (step: StoryStep) => void = () => undefined): Promise<StoryResult> {
  const repo = await buildDemoRepo(root);
  const { ada, cy, bob, dana } = repo.agents;
  const steps: StoryStep[] = [];
  const blockedPushes: string[] = [];
  const team = join(root, 'team');

  const cli = async (agent: DemoAgent, action: string, args: string[]): Promise<StoryEvent> => {
    const { code, output } = await runCliProcess(repo, agent.path, args);
    return { agent: agent.name, action, code, output: output.trim() };
  };
  const commit = async (agent: DemoAgent, message: string): Promise<void> => {
    await demoGit(repo, agent.path, ['add', '-A']);
    await demoGit(repo, agent.path, ['commit', '-q', '-m', message]);
  };
  const push = async (agent: DemoAgent): Promise<StoryEvent> => {
    const result = await demoGit(repo, agent.path, ['push', '-u', 'origin', agent.branch], [1]);
    if (result.code !== 0) blockedPushes.push(agent.name);
    return { agent: agent.name, action: m.push(agent.branch), code: result.code, output: result.stderr.trim() };
  };
  const snapshot = async (title: string, events: StoryEvent[]): Promise<void> => {
    const now = Date.now();
    // In this process, with the airspace's settings: the graph is built inline, as the agents' checks
    // build it (src/demo/demo-repo.ts), never by a background build.
    const { judgements } = await runAirspace({ kind: 'scan', cwd: team, fetch: true, readOnly: true }, { env: { ...process.env, ...repo.env } });
    const scan = judgements[0]!.scan;
    const step = { title, events, scan, at: now };
    steps.push(step);
    onStep(step);
  };

  // Hooks go in once per clone; the worktrees of a clone share its hooks directory. The two clones
  // share nothing, so both installs run at once.
  const setup = await Promise.all([cli({ ...ada, path: team }, m.install, ['install', '--force']), cli(dana, m.install, ['install', '--force'])]);

  // 1. Far apart: everyone works in a different corner of the code.
  await editLines(ada, 'src/auth/session.ts', 5, 14, 'ada: session timeout');
  await editLines(bob, 'src/billing/tax.ts', 4, 10, 'bob: tax rounding');
  await editLines(cy, 'src/ui/form.ts', 4, 8, 'cy: form validation');
  await editLines(dana, 'src/api/client.ts', 4, 12, 'dana: retry');
  await commit(dana, 'api: retry failed connections');
  await snapshot(m.steps.farApart, [...setup, await push(dana)]);

  // 2. Converging: cy decides to cache sessions and says so before writing a line.
  await snapshot(m.steps.converging, [
    await cli(cy, m.intent('src/auth/session.ts'), ['intent', 'add', 'src/auth/session.ts']),
    await cli(cy, m.check, ['check']),
    await cli(ada, m.check, ['check']),
    await cli(ada, m.inbox, ['inbox']),
  ]);

  // 3. Collision imminent: ada lands her work first; cy edits the very lines ada changed.
  await commit(ada, 'auth: expire idle sessions');
  const adaPush = await push(ada);
  await editLines(cy, 'src/auth/session.ts', 8, 16, 'cy: session cache');
  await commit(cy, 'auth: cache open sessions');
  const cyPush = await push(cy);
  await snapshot(m.steps.imminent, [adaPush, cyPush]);

  // 4. cy steers: moves the cache out of ada's lines into a module of its own, and pushes again.
  await demoGit(repo, cy.path, ['reset', '-q', '--hard', 'HEAD~1']);
  const cleared = await cli(cy, m.clearIntent, ['intent', 'clear']);
  await editLines(cy, 'src/ui/form.ts', 4, 8, 'cy: form validation');
  await writeTree(cy.path, { 'src/cache/session-cache.ts': 'export const sessionCache = new Map<string, string>();\n' });
  await commit(cy, 'cache: session cache in its own module');
  const cySteered = await push(cy);
  await snapshot(m.steps.steered, [{ agent: cy.name, action: m.steer }, cleared, cySteered]);

  // 5. A signature change caught before the build breaks: dana (another machine) adds a required
  // parameter to `connect` and pushes; bob's new, uncommitted code calls it the old way. Git would
  // merge both cleanly and the build would break; bob's check names the symbol and both places.
  const client = await readFile(join(dana.path, 'src/api/client.ts'), 'utf8');
  await writeTree(dana.path, { 'src/api/client.ts': client.replace('connect(user: string)', 'connect(user: string, retries: number)') });
  await commit(dana, 'api: connect takes a retry count');
  const danaPush = await push(dana);
  await demoGit(repo, bob.path, ['fetch', '-q', 'origin']);
  await writeTree(bob.path, { 'src/billing/sync.ts': SYNC.replace('CALL', 'connect(user)') });
  const caught = await cli(bob, m.check, ['check']);
  await snapshot(m.steps.signature, [danaPush, caught]);

  // bob adapts before committing: builds on dana's pushed work and passes the retry count.
  await demoGit(repo, bob.path, ['merge', '-q', '--no-edit', `origin/${dana.branch}`]);
  await writeTree(bob.path, { 'src/billing/sync.ts': SYNC.replace('CALL', 'connect(user, 3)') });
  const adapted = await cli(bob, m.check, ['check']);

  // 6. Everyone lands: bob pushes, then every line of work is merged into main.
  await commit(bob, 'billing: round tax to cents, sync invoices');
  const bobPush = await push(bob);
  const { conflicts, landed, events } = await landAll(repo, [ada, dana, cy, bob]);
  await snapshot(m.steps.landed, [{ ...adapted, action: m.adapt }, bobPush, ...events]);

  const resolutionAdvisory = steps.some((s) => s.scan.counts.RA > 0) || cyPush.code !== 0;
  return { root, steps, blockedPushes, resolutionAdvisory, mergeConflicts: conflicts, landed };
}

/** Merges every agent's branch into main in a fresh worktree, counting conflicts (merge --abort on one). */
async function landAll(repo: DemoRepo, agents: readonly DemoAgent[]): Promise<{ conflicts: number; landed: string[]; events: StoryEvent[] }> {
  const land = join(repo.root, 'land');
  const team = join(repo.root, 'team');
  await demoGit(repo, team, ['fetch', '-q', 'origin']);
  await demoGit(repo, team, ['worktree', 'add', '-q', '--detach', land, 'origin/main']);
  let conflicts = 0;
  const landed: string[] = [];
  const events: StoryEvent[] = [];
  for (const agent of agents) {
    const ref = `refs/remotes/origin/${agent.branch}`;
    const exists = await demoGit(repo, land, ['rev-parse', '-q', '--verify', ref], [1]);
    if (exists.code !== 0) {
      events.push({ agent: agent.name, action: m.notPushed(agent.branch), code: 1 });
      continue;
    }
    const merge = await demoGit(repo, land, ['merge', '--no-edit', '-q', ref], [1]);
    if (merge.code !== 0) {
      conflicts++;
      await demoGit(repo, land, ['merge', '--abort'], [128]);
    } else landed.push(agent.name);
    events.push({ agent: agent.name, action: m.merge(agent.branch), code: merge.code });
  }
  await demoGit(repo, land, ['push', '-q', '--no-verify', 'origin', 'HEAD:main']);
  return { conflicts, landed, events };
}
