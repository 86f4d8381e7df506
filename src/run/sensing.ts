import { collectTraffic, type Traffic, type TrafficInput } from './collect-traffic.js';
import { computeGitChannels, type GitChannels, type GitChannelsInput } from './compute-git-channels.js';
import { readPeerBeacons, type PeerBeaconInput, type PeerBeacons } from './gather-inputs.js';
import { graphForRun } from './graph-for-run.js';
import { openRepository } from './open-repository.js';

/**
 * The steps of a run that read git and the file system of the worktrees (src/run/run-airspace.ts):
 * the opening (the repository and its configuration), 1 collect traffic, the git half of 2 (the peers' beacons folded into the pairs), the import graph
 * of 2 (its cache file and the ownship's tree) and 3 the git channels. Everything else a run does —
 * the risk history, the intents, the scores, the
 * report and the state it writes — depends on the clock or on files the run itself writes, and is
 * computed by every run. A one-shot run senses with `liveSensing`; the resident process may answer
 * from its last run of the same inputs instead (src/resident/warm-airspace.ts), stage for stage.
 */
export interface Sensing {
  readonly openRepository: typeof openRepository;
  readonly collectTraffic: (input: TrafficInput) => Promise<Traffic>;
  readonly readPeerBeacons: (input: PeerBeaconInput) => Promise<PeerBeacons>;
  readonly graphForRun: typeof graphForRun;
  readonly computeGitChannels: (input: GitChannelsInput) => Promise<GitChannels>;
}

export const liveSensing: Sensing = { openRepository, collectTraffic, readPeerBeacons, graphForRun, computeGitChannels };
