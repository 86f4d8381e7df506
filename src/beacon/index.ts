/** The transponder: beacons published to and read from `refs/airspace/beacons/*` on the remote. */
export { BEACON_FETCH_REFSPEC, BEACON_REF_PREFIX, FETCHED_BEACON_PREFIX, beaconRef, decodeAgentRefComponent, encodeAgentId, fetchedBeaconRef } from './agent-ref.js';
export { beaconAgentInput, type BeaconAgentInput } from './beacon-agent.js';
export { DEFAULT_BEACON_LIMITS, DEFAULT_BEACON_TTL_MS, DEFAULT_FUTURE_SKEW_MS, beaconLimits, type BeaconLimits } from './beacon-limits.js';
export { BEACON_SCHEMA_VERSION, checkBeacon, type Beacon } from './beacon-schema.js';
export { collapseRanges, fitBeacon } from './fit-beacon.js';
export { listBeacons, type ListBeaconsResult, type RemoteBeaconRef } from './list-beacons.js';
export { mergeBeaconIntoWorkingSet, unionRanges, type BeaconMerge, type BeaconMergeMode } from './merge-beacon.js';
export { parseBeacon, type BeaconSkipReason } from './parse-beacon.js';
export { BEACON_FILE, DEFAULT_PUBLISH_TIMEOUT_MS, clearBeacon, publishBeacon, type PublishFailure, type PublishOptions, type PublishResult } from './publish-beacon.js';
export { readBeacons, type ReadBeaconsOptions, type ReadBeaconsResult, type SkippedBeacon } from './read-beacons.js';
export { isSafeRepoPath, repoPathProblem } from './safe-repo-path.js';
