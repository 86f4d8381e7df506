import { loadConfig } from '../config/load-config.js';
import { isAirspaceError } from '../errors.js';
import { gitVersion, hasRemote } from '../git/git-facts.js';
import { lastFetchAge } from '../git/fetch-traffic.js';
import { resolveRepo, type RepoInfo } from '../git/resolve-repo.js';
import { graphHealth, type GraphHealth } from '../graph/graph-health.js';
import { detectPackageManager, inspectInstallation } from '../install/index.js';
import type { InstallFinding, PackageManager, PackageManagerName } from '../install/index.js';
import { locateBin } from '../install/find-cli.js';
import { inspectHarness } from '../install/harness-settings.js';
import { HARNESS_IDS, HARNESSES } from '../install/harness-specs.js';
import { inspectWorktrees } from '../install/inspect-worktrees.js';
import { binCommand, coverageMessages as cm, doctorMessages as m, type WorktreeCommands } from '../messages/setup.js';
import { describeResident, residentState } from './resident.js';

/**
 * `doctor`: what is installed and what works, each finding with its fix. Reads only; every check
 * is independent, so one broken part never hides the others.
 */
export type DoctorLevel = 'ok' | 'warn' | 'error';

export interface DoctorFinding {
  readonly level: DoctorLevel;
  readonly topic: string;
  readonly text: string;
  readonly fix?: string;
}

export interface Diagnosis {
  readonly findings: readonly DoctorFinding[];
  readonly installation: readonly InstallFinding[];
  /** The project's package manager, for the commands the findings suggest. */
  readonly packageManager?: PackageManager;
  /** How airspace-hooks runs from where doctor ran (commandsIn), for the installation lines. */
  readonly cli?: string;
}

const MIN_NODE = [20, 19];
const MIN_GIT = [2, 38];

export async function diagnose(cwd: string): Promise<Diagnosis> {
  const findings: DoctorFinding[] = [];
  const add = (level: DoctorLevel, topic: string, text: string, fix?: string) => findings.push({ level, topic, text, ...(fix ? { fix } : {}) });

  const node = process.versions.node.split('.').map(Number);
  if (atLeast(node, MIN_NODE)) add('ok', 'node', m.nodeOk(process.versions.node));
  else add('error', 'node', m.nodeOld(process.versions.node), m.nodeFix);

  let gitOk = false;
  try {
    const version = await gitVersion(cwd);
    gitOk = atLeast(
      version.split('.').map((p) => Number.parseInt(p, 10)),
      MIN_GIT,
    );
    if (gitOk) add('ok', 'git', m.gitOk(version));
    else add('error', 'git', m.gitOld(version), m.gitFix);
  } catch (error) {
    add('error', 'git', isAirspaceError(error) ? error.message : String(error), m.gitFix);
  }
  if (!gitOk) return { findings, installation: [] };

  let repo: RepoInfo;
  try {
    repo = await resolveRepo(cwd);
  } catch (error) {
    add('error', 'repository', isAirspaceError(error) ? error.message : String(error), m.repoFix);
    return { findings, installation: [] };
  }
  const packageManager = detectPackageManager(repo.toplevel);
  const { cli } = commandsIn(repo.toplevel, repo.commonDir, packageManager.name);
  if (repo.head === null) add('warn', 'repository', m.noCommits, m.noCommitsFix);
  else add('ok', 'repository', m.repoOk(repo.branch));
  if (repo.branch === null && repo.head !== null) add('warn', 'repository', m.detached, m.detachedFix);
  if (repo.isShallow) add('warn', 'repository', m.shallow, m.shallowFix);

  let remote = 'origin';
  try {
    const config = await loadConfig(repo.toplevel);
    remote = config.remote;
    add('ok', 'config', config.source ? m.configFrom(config.source) : m.configDefaults);
  } catch (error) {
    add('error', 'config', isAirspaceError(error) ? error.message : String(error), m.configFix);
  }
  if (!(await hasRemote(cwd, remote))) add('warn', 'remote', m.noRemote(remote), m.noRemoteFix(remote));
  else {
    const fetched = await lastFetchAge(repo.commonDir);
    add(fetched ? 'ok' : 'warn', 'remote', fetched ? m.fetchedAgo(remote, fetched.ageMs) : m.neverFetched(remote), fetched ? undefined : m.fetchFix(cli));
  }

  try {
    findings.push(...graphFindings(await graphHealth(repo.toplevel, repo.commonDir), cli, packageManager.name));
  } catch (error) {
    add('warn', 'import graph', isAirspaceError(error) ? error.message : String(error));
  }

  findings.push(...(await worktreeFindings(cwd, repo, packageManager.name)));
  findings.push(...(await harnessFindings(cwd, cli)));
  findings.push(await residentFinding(cwd));
  const installation = await inspectInstallation(cwd);
  return { findings, installation, packageManager, cli };
}

/**
 * The commands that work in `worktree`, found as the shims find the CLI (src/install/find-cli.ts):
 * a linked worktree has no node_modules of its own until someone installs there, and `npx` there
 * asks the registry (E404), so its fix lines name the main worktree's bin by its path.
 */
function commandsIn(worktree: string, commonDir: string, pm: PackageManagerName, env: NodeJS.ProcessEnv = process.env): WorktreeCommands {
  return {
    cli: binCommand('airspace-hooks', locateBin('airspace-hooks', worktree, commonDir, env), pm),
    install: `${pm} install`,
    husky: binCommand('husky', locateBin('husky', worktree, commonDir, env), pm),
  };
}

/**
 * Every worktree of the repository, from whichever one doctor runs in: a worktree where git runs
 * no airspace hook on push is a FAIL with the command that fixes it from here. "Nothing installed"
 * is the installation section's warning already (it is the shared hooks dir, the same for all).
 */
async function worktreeFindings(cwd: string, repo: RepoInfo, pm: PackageManagerName): Promise<DoctorFinding[]> {
  try {
    const worktrees = await inspectWorktrees(cwd, repo.toplevel, repo.commonDir);
    const unprotected = worktrees.filter((w) => !w.protection.protected);
    const failing = worktrees.flatMap((w) => w.failingChains.map((chain) => ({ worktree: w, chain })));
    if (unprotected.length === 0 && failing.length === 0) return [{ level: 'ok', topic: cm.worktreesTopic, text: cm.worktreesProtected(worktrees.length) }];
    return [
      ...unprotected.map(
        (w): DoctorFinding => ({
          level: w.protection.reason === 'nothing-installed' ? 'warn' : 'error',
          topic: cm.worktreesTopic,
          text: cm.worktreeUnprotected(w.path, w.branch, cm.why(w.protection)),
          fix: cm.fix(w.path, w.protection, commandsIn(w.path, repo.commonDir, pm)),
        }),
      ),
      // The hook fails before ours: the commit or push stops there, and our check never runs.
      ...failing.map(
        ({ worktree: w, chain }): DoctorFinding => ({
          level: 'error',
          topic: cm.worktreesTopic,
          text: cm.chainFails(w.path, w.branch, chain.hook, chain.path),
          fix: cm.chainFix(w.path, commandsIn(w.path, repo.commonDir, pm)),
        }),
      ),
    ];
  } catch (error) {
    return [{ level: 'warn', topic: cm.worktreesTopic, text: isAirspaceError(error) ? error.message : String(error) }];
  }
}

/**
 * The agent harnesses' edit hooks in this worktree (src/install/harness-settings.ts): each one
 * installed, and a warning where install's record says ours but the settings file no longer has
 * it — the agent then edits unchecked, and nothing else would say so.
 */
async function harnessFindings(cwd: string, cli: string): Promise<DoctorFinding[]> {
  const findings: DoctorFinding[] = [];
  for (const id of HARNESS_IDS) {
    const spec = HARNESSES[id];
    const file = spec.settingsFile.join('/');
    try {
      const state = await inspectHarness(spec, cwd);
      if (state.kind === 'installed') findings.push({ level: 'ok', topic: m.harnessTopic, text: m.harnessInstalled(spec.label, file) });
      else if (state.kind === 'entry-missing')
        findings.push({ level: 'warn', topic: m.harnessTopic, text: m.harnessEntryMissing(spec.label, file, state.fileMissing), fix: m.harnessFix(cli, id) });
      else if (state.kind === 'unreadable')
        findings.push({ level: 'warn', topic: m.harnessTopic, text: m.harnessUnreadable(spec.label, state.reason), fix: m.harnessFix(cli, id) });
    } catch (error) {
      findings.push({ level: 'warn', topic: m.harnessTopic, text: isAirspaceError(error) ? error.message : String(error) });
    }
  }
  return findings.length > 0 ? findings : [{ level: 'ok', topic: m.harnessTopic, text: m.harnessNone(cli) }];
}

/** The resident process (docs/decisions/resident.md): its pid, build, uptime and socket, or why there is none. */
async function residentFinding(cwd: string): Promise<DoctorFinding> {
  try {
    return { level: 'ok', topic: 'resident', text: describeResident(await residentState(cwd)) };
  } catch (error) {
    return { level: 'warn', topic: 'resident', text: isAirspaceError(error) ? error.message : String(error) };
  }
}

/**
 * doctor's words for src/graph/graph-health.ts, the one place the graph's health is worked out.
 * TypeScript is what dependency-cruiser itself can load (its JS API; absent in TS 7), and it is
 * only needed where there are TypeScript files.
 */
export function graphFindings(health: GraphHealth, cli = 'npx airspace-hooks', pm: PackageManagerName = 'npm'): DoctorFinding[] {
  const findings: DoctorFinding[] = [];
  const ts = health.typescript;
  const fix = m.typescriptFix(pm, ts.declared?.range, ts.declared?.usable === true);
  const withFix = fix === undefined ? {} : { fix };
  if (ts.available) findings.push({ level: 'ok', topic: 'typescript', text: m.typescriptOk(ts.version ?? '?') });
  else if (health.sources.typescript === 0) findings.push({ level: 'ok', topic: 'typescript', text: m.typescriptNotNeeded });
  // oxc reads the imports without a compiler: nothing to install (issue 26, item 3).
  else if (ts.readWithOxc) findings.push({ level: 'ok', topic: 'typescript', text: m.typescriptReadWithOxc(health.sources.typescript, ts.version) });
  else if (ts.version !== undefined) findings.push({ level: 'error', topic: 'typescript', text: m.typescriptNoApi(ts.version), ...withFix });
  else findings.push({ level: 'warn', topic: 'typescript', text: m.typescriptMissingFor(health.sources.typescript), ...withFix });
  if (health.cache.builtAt === undefined) findings.push({ level: 'warn', topic: 'import graph', text: m.graphMissing, fix: m.graphFix(cli) });
  else findings.push({ level: 'ok', topic: 'import graph', text: m.graphOk(health.cache.files, health.cache.changedSinceBuild) });
  // cache-missing is the line above; typescript-missing is the typescript finding.
  for (const warning of health.warnings) {
    if (warning.code !== 'cache-missing' && warning.code !== 'typescript-missing')
      findings.push({ level: 'warn', topic: 'import graph', text: warning.message });
  }
  return findings;
}

function atLeast(version: readonly number[], min: readonly number[]): boolean {
  for (let i = 0; i < min.length; i++) {
    const v = version[i] ?? 0;
    if (v !== min[i]) return v > min[i]!;
  }
  return true;
}
