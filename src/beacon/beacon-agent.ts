/**
 * A beacon seen on its own (the peer's branch is not visible): the id, working set and priority
 * facts `toAgent` (src/traffic/to-agent.ts) needs. Files without an origin are marked `beacon`, so
 * the report can say where the work was seen. The priority facts are git's, not the beacon's
 * claims: a peer with no visible branch has pushed nothing (see src/run/report-facts.ts).
 */
import type { AgentFacts } from '../traffic/to-agent.js';
import type { WorkingSet } from '../traffic/working-set.js';
import type { Beacon } from './beacon-schema.js';

export interface BeaconAgentInput {
  readonly id: string;
  readonly workingSet: WorkingSet;
  readonly facts: AgentFacts;
}

export function beaconAgentInput(beacon: Beacon, workingSet: WorkingSet = beacon.workingSet): BeaconAgentInput {
  return {
    id: beacon.agent,
    workingSet: { base: workingSet.base, files: workingSet.files.map((f) => (f.origin ? f : { ...f, origin: 'beacon' as const })) },
    facts: { intent: beacon.intent, committedWork: 0 },
  };
}
