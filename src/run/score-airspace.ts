import { pairKey } from '../engine/index.js';
import type { ChannelledPair } from '../channels/types.js';
import { runMessages } from '../messages/hooks-and-check.js';
import type { AirspaceReport } from '../report/check-report.js';
import { appendSamples } from '../state/history-store.js';
import type { Airspace } from '../traffic/collect-airspace.js';
import type { LineOfWork } from '../traffic/line-of-work.js';
import type { AgentFacts } from '../traffic/to-agent.js';
import type { RunBudget } from './run-budget.js';
import type { RunPlan } from './run-request.js';
import type { PreparedScoring, ScoredAirspace } from './score-pairs.js';
import { exchangeMessages } from './transmit-intent.js';

/** Stage 4 of a run (src/run/run-airspace.ts): the engine's scores, then the risk history and the local inboxes. */
export interface ScoreInput {
  readonly pairs: readonly ChannelledPair[];
  readonly prepared: PreparedScoring;
  readonly plan: RunPlan;
  readonly airspace: Airspace;
  readonly ownship: LineOfWork | null;
  readonly facts: ReadonlyMap<string, AgentFacts>;
  readonly budget: RunBudget;
  readonly progress: (text: string) => void;
  readonly now: number;
}

export interface Scored {
  readonly scored: ScoredAirspace;
  /** The ownship's new inbox messages (check only). */
  readonly inbox: AirspaceReport['inbox'];
}

export async function scoreAirspace(input: ScoreInput): Promise<Scored> {
  const { budget, plan, airspace, ownship, now } = input;
  input.progress(runMessages.scoring(input.pairs.length));
  const scored = await budget.stage('scoring', async () => input.prepared.score(input.pairs));
  if (!plan.writeState) return { scored, inbox: [] };
  const inbox = await budget.stage('state', async () => {
    await appendSamples(
      airspace.commonDir,
      scored.links.map((l) => ({ pairKey: pairKey(l.a, l.b), at: now, risk: l.risk })),
    );
    if (!ownship?.gitDir || plan.command !== 'check') return [];
    return exchangeMessages({
      gitDir: ownship.gitDir,
      ownship,
      traffic: airspace.traffic,
      unread: airspace.unknown.map((u) => u.id),
      links: scored.links,
      facts: input.facts,
      now,
    });
  });
  return { scored, inbox };
}
