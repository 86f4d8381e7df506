import { publishBeacon } from '../beacon/publish-beacon.js';
import type { Output } from '../report/output.js';
import type { HookName } from '../config/defaults.js';
import { EXIT } from '../errors.js';
import { beaconNotPublishedLine } from '../messages/beacon.js';
import { hookMessages } from '../messages/hook.js';
import { sanitizeText } from '../report/sanitize-text.js';
import { renderReportText } from '../report/render-text.js';
import { openRepository } from './open-repository.js';
import { scanRepository, type ScanOutcome } from './scan-repository.js';
import { verdictFor } from './verdict.js';

/** One line of git's pre-push stdin. */
export interface PushedRef {
  readonly localRef: string;
  readonly localSha: string;
  readonly remoteRef: string;
  readonly remoteSha: string;
}

export interface HookCheckInput {
  readonly cwd: string;
  readonly hook: HookName;
  readonly remoteName: string | null;
  readonly pushed: readonly PushedRef[];
  readonly strict: boolean;
  readonly json: boolean;
  readonly output: Output;
}

const ZERO = /^0+$/;

/**
 * What the installed hooks run. pre-commit reads only local state (no network: it uses the last
 * fetch and says how old it is); pre-push fetches, may block, and publishes this agent's beacon.
 * The whole check is raced against the hook's budget: a hook never hangs, it reports what it
 * skipped and lets the commit or push through (or blocks, when configured fail-closed).
 */
export async function runHookCheck(input: HookCheckInput): Promise<{ exitCode: number }> {
  const { output, hook } = input;
  const { repo, config } = await openRepository(input.cwd, { inheritRepoEnv: true });
  const settings = config.hooks[hook];
  if (settings.mode === 'off') return { exitCode: EXIT.ok };
  if (hook === 'pre-push' && input.pushed.length > 0 && input.pushed.every((r) => ZERO.test(r.localSha) || r.localRef.startsWith('refs/tags/'))) {
    output.err(hookMessages.nothingToCheck);
    return { exitCode: EXIT.ok };
  }
  const now = Date.now();
  const deadline = now + settings.budgetMs;
  const scan = scanRepository({
    cwd: input.cwd,
    config,
    command: 'check',
    hook,
    fetch: settings.fetch,
    now,
    graphRefresh: hook === 'pre-commit' ? 'never' : 'auto',
    inheritRepoEnv: true,
    repo,
    withBeacon: hook === 'pre-push' && settings.publishBeacon,
    embed: input.json,
    onProgress: output.progress,
  });
  const outcome = await raceBudget(scan, settings.budgetMs);
  if (outcome === 'timeout') {
    output.err(hookMessages.overBudget(hook, settings.budgetMs, 'the airspace check'));
    return { exitCode: settings.failClosed || input.strict ? EXIT.steer : EXIT.ok };
  }
  const verdict = verdictFor(outcome.report, settings.mode);
  const report = { ...outcome.report, verdict };
  if (input.json) output.out(JSON.stringify(report, null, 2));
  else output.err(renderReportText(report, output.errStyle));

  if (report.scanned.fetch.ok === false && settings.failClosed) {
    output.err(hookMessages.fetchFailedClosed(report.scanned.fetch.reason ?? 'unknown'));
    return { exitCode: EXIT.steer };
  }
  if (outcome.ownBeacon) {
    const remaining = Math.max(1_000, deadline - Date.now());
    const published = await publishBeacon(input.cwd, config.remote, outcome.ownBeacon, { timeoutMs: Math.min(remaining, 10_000), limits: { maxBytes: config.beacons.maxBytes }, ...(outcome.ownWork ? { parent: outcome.ownWork } : {}) });
    if (!published.ok) output.err(beaconNotPublishedLine(published.reason ?? 'failed', published.detail ? sanitizeText(published.detail) : undefined));
  }
  return { exitCode: verdict.block ? EXIT.steer : EXIT.ok };
}

async function raceBudget(scan: Promise<ScanOutcome>, budgetMs: number): Promise<ScanOutcome | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), budgetMs);
  });
  try {
    return await Promise.race([scan, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
