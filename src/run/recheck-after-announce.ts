import { cloneOfComponent } from '../beacon/agent-ref.js';
import { fetchedComponent } from '../beacon/read-beacons.js';
import type { FetchResult } from '../git/fetch-traffic.js';
import { runGit } from '../git/exec-git.js';
import type { Link } from '../engine/index.js';
import type { RunJudgement } from './assemble-report.js';
import { isOverBudget, type RunBudget } from './run-budget.js';
import { verdictFor } from './verdict.js';

/**
 * Stage 6b of a pre-push (src/run/run-airspace.ts): look again after announcing.
 *
 * Check-then-push is a race: ten first pushes at the same instant each saw "no traffic" and all
 * landed (issue 24, item 11). So a pre-push announces before it decides: it publishes its beacon
 * (stage 6), fetches again, and judges again if anything but its own beacon changed. Of two agents
 * announcing at the same moment, the later announcer's second look happens after the earlier one's
 * beacon is on the remote, so at least one of them sees the other. A conflicting (RA) peer that
 * appears only in the second look was pushing at the same moment: nothing both machines can read
 * says who was first, so whoever sees it steers, whatever the right of way would say.
 *
 * Seeing the other is not enough to hold, though. An agent that saw a peer's announce in its first
 * look and has the right of way would hold and land; but that peer's looks may both have come
 * before our announce, so it lands too, and two colliding pushes are on the remote. A holder cannot
 * know what the peer saw, only that the peer's push is still under way: its beacon says `pushing`
 * and the remote's branch does not carry its tip yet (`pushing` in the report,
 * src/run/report-facts.ts). Against such a peer we steer as well. Both may steer once: a push the
 * hook refuses settles every announce of its run (publishes its beacons again without `pushing`,
 * src/run/run-airspace.ts stage 6c), so the next push of either side ranks the two as usual and
 * exactly one of them steers.
 *
 * A peer under way in our first look may land before our second: it is no longer under way then,
 * but its looks may still have come before our announce. So we steer from it as well, unless it has
 * settled its announce meanwhile (its push was refused: it is ranked as usual).
 *
 * So `pushing` must mean a push that may land. Only a first look that lets every pushed ref go
 * announces (stage 6): one that already steers would, while it looks again, make a peer with the
 * right of way steer from a push that never comes. And a first look's block stands whatever the
 * second look says (keepFirstBlock): a push that never announced must not land.
 *
 * What this does not close: a peer whose clock is more than the window behind ours (its announce
 * reads as settled), and a push killed before it could settle its announce, which keeps its peers
 * steering until the window has passed. A ref compare-and-swap (`--force-with-lease`) would close
 * the first, but there is no one ref both first pushes of two different branches update.
 */

export interface RecheckInput {
  readonly cwd: string;
  readonly budget: RunBudget;
  /** The judgements of the first look, one per pushed ref (their beacons just published). */
  readonly judgements: readonly RunJudgement[];
  /** Fetches the traffic again (stage `recheck`). */
  readonly fetchAgain: () => Promise<FetchResult>;
  /** Judges pushed ref `i` again on the traffic `fetched`. */
  readonly judgeAgain: (i: number, fetched: FetchResult) => Promise<RunJudgement>;
}

/**
 * The second look: the judgements to keep (the first ones when nothing but our own beacon
 * changed), and the peers we steer from because they pushed at the same moment — those that
 * appeared meanwhile and those whose push is still under way. A look cut by the budget keeps the
 * first verdict, as a cut publish does.
 */
export async function recheckAfterAnnounce(input: RecheckInput): Promise<{ judgements: RunJudgement[]; newcomers: string[] }> {
  const looked = await lookAgain(input);
  const judgements: RunJudgement[] = [];
  const steeredFrom = new Set(looked.newcomers);
  for (const [i, judgement] of looked.judgements.entries()) {
    const steered = steerFromPushesUnderWay(judgement, input.judgements[i]!);
    judgements.push(keepFirstBlock(input.judgements[i]!, steered.judgement));
    for (const peer of steered.peers) steeredFrom.add(peer);
  }
  return { judgements, newcomers: [...steeredFrom] };
}

async function lookAgain(input: RecheckInput): Promise<{ judgements: RunJudgement[]; newcomers: string[] }> {
  const kept = { judgements: [...input.judgements], newcomers: [] as string[] };
  const clone = input.judgements[0]?.ownBeacons.clone;
  if (clone === undefined) return kept;
  try {
    const before = await trafficRefs(input.cwd, clone);
    const again = await input.fetchAgain();
    if (!again.ok || (await trafficRefs(input.cwd, clone)) === before) return kept;
    const judgements: RunJudgement[] = [];
    const newcomers: string[] = [];
    for (const [i, first] of input.judgements.entries()) {
      const steered = steerFromNewcomers(first, await input.judgeAgain(i, again));
      judgements.push(steered.judgement);
      newcomers.push(...steered.newcomers);
    }
    return { judgements, newcomers };
  } catch (error) {
    if (isOverBudget(error) || input.budget.signal.aborted) return kept;
    throw error;
  }
}

/** Our copies of the remote's refs (branches and beacons), minus this clone's own beacons: what a second look can change. */
export async function trafficRefs(cwd: string, cloneId: string): Promise<string> {
  const listed = await runGit(['for-each-ref', '--format=%(objectname) %(refname)', 'refs/airspace/'], { cwd });
  // Our own beacon stands under its legacy ref and its area refs (src/beacon/beacon-areas.ts).
  const ours = (ref: string): boolean => {
    const component = fetchedComponent(ref);
    return component !== null && cloneOfComponent(component) === cloneId;
  };
  return listed.stdout
    .toString('utf8')
    .split('\n')
    .filter((line) => line !== '' && !ours(line.slice(line.indexOf(' ') + 1)))
    .join('\n');
}

/** The second judgement, steering from every RA peer the first look did not know. */
export function steerFromNewcomers(first: RunJudgement, second: RunJudgement): { judgement: RunJudgement; newcomers: string[] } {
  const known = new Set(first.report.agents.map((agent) => agent.id));
  const steered = steerFrom(second, (peer) => !known.has(peer));
  return { judgement: steered.judgement, newcomers: steered.peers };
}

/**
 * The second judgement, unless the first one blocked and it does not. A push that steered in its
 * first look did not announce (src/run/run-airspace.ts stage 6): if a second look let it go, it would
 * land with no peer able to see it under way. So the second look may add steering, never lift it:
 * the first look's peers are steered from again where their link is still an RA, and where none is,
 * the first verdict stands.
 */
export function keepFirstBlock(first: RunJudgement, second: RunJudgement): RunJudgement {
  const blocked = first.report.verdict;
  if (blocked?.block !== true || second.report.verdict?.block === true) return second;
  const again = steerFrom(second, (peer) => blocked.steerFrom.includes(peer)).judgement;
  return again.report.verdict?.block === true ? again : first;
}

/**
 * The judgement, steering from every RA peer it would hold against whose announced push is under
 * way (`pushing`) — now, or in the first look and not settled since: a peer that landed between our
 * two looks may have looked before our announce, so it landed without having seen us.
 */
export function steerFromPushesUnderWay(judgement: RunJudgement, first: RunJudgement): { judgement: RunJudgement; peers: string[] } {
  const own = judgement.report.scanned.ownship;
  const underWay = (j: RunJudgement) => new Set(j.report.agents.filter((agent) => agent.pushing === true).map((agent) => agent.id));
  const now = underWay(judgement);
  const before = underWay(first);
  const pushed = (peer: string) => now.has(peer) || (before.has(peer) && judgement.peersAnnouncing.has(peer));
  return steerFrom(judgement, (peer, link) => link.hold === own && pushed(peer));
}

/** `judgement` with the ownship steering on every RA link to a peer `steers` picks, its verdict judged again. */
function steerFrom(judgement: RunJudgement, steers: (peer: string, link: Link) => boolean): { judgement: RunJudgement; peers: string[] } {
  const own = judgement.report.scanned.ownship;
  const verdict = judgement.report.verdict;
  if (own === null || verdict === null) return { judgement, peers: [] };
  const peers: string[] = [];
  const links = judgement.report.links.map((link): Link => {
    if (link.level !== 'RA' || (link.a !== own && link.b !== own)) return link;
    const peer = link.a === own ? link.b : link.a;
    if (!steers(peer, link)) return link;
    peers.push(peer);
    // The right of way's reason ("more pushed work") does not apply: nobody knows who was first.
    const { holdReason: _unknown, ...rest } = link;
    return { ...rest, steer: own, hold: peer };
  });
  if (peers.length === 0) return { judgement, peers };
  const advisories = links.filter((link) => link.level !== 'clear');
  // The one verdict rule (a stale beacon still never blocks alone), on the links as steered now.
  const changed = { ...judgement.report, links, advisories };
  const report = { ...changed, verdict: verdictFor(changed, verdict.mode) };
  return { judgement: { ...judgement, report, scan: { ...judgement.scan, links, advisories } }, peers };
}
