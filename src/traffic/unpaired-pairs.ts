import type { PairWorkingSets } from './collect-airspace.js';
import type { Unpaired, UnpairedGroup } from './every-pair.js';
import { targetOf } from './line-of-work.js';
import { meetingPairs } from './meeting-pairs.js';
import type { WorkingSetFile } from './working-set.js';

/**
 * The pairs `collectAirspace` described and did not build (src/traffic/every-pair.ts), built the
 * way it builds the others: for a stage that needs every pair after all (a model whose clear
 * bound needs graph contact, a scan small enough to run the symbol channel on every pair), or the
 * pairs a declared intent makes meet.
 */
export function buildUnpaired(unpaired: Unpaired, keep?: (group: UnpairedGroup, key: number) => boolean): PairWorkingSets[] {
  const pairs: PairWorkingSets[] = [];
  for (const group of unpaired.groups) {
    const m = group.members.length;
    for (let x = 0; x < m; x++) {
      for (let y = x + 1; y < m; y++) {
        const key = x * m + y;
        if (group.built.has(key) || (keep !== undefined && !keep(group, key))) continue;
        const a = group.members[x]!;
        const b = group.members[y]!;
        pairs.push({
          a: a.line.id,
          b: b.line.id,
          base: group.base,
          workingSetA: a.side,
          workingSetB: b.side,
          states: { a: targetOf(a.line), b: targetOf(b.line), fromBase: true },
        });
      }
    }
  }
  return pairs;
}

/**
 * The unbuilt pairs a declared intent makes meet: the engine reads an intent as whole-file entries
 * of those paths (src/traffic/to-agent.ts), which share a path with the other side like any edit.
 * Indexed per group as in every-pair.ts, with each member's intent joined to its side; the rest
 * stays unbuilt and is counted.
 */
export function unpairedMeetingIntent(unpaired: Unpaired, intentOf: (id: string) => readonly string[]): { pairs: PairWorkingSets[]; left: number } {
  const meet = new Map<UnpairedGroup, Set<number>>();
  for (const group of unpaired.groups) {
    if (!group.members.some((member) => intentOf(member.line.id).length > 0)) continue;
    const sets = group.members.map(({ line, side }): readonly WorkingSetFile[] => {
      const intent = intentOf(line.id);
      return intent.length === 0 ? side.files : [...side.files, ...intent.map((file): WorkingSetFile => ({ file, status: 'M', whole: true }))];
    });
    meet.set(group, meetingPairs(sets));
  }
  const pairs = meet.size === 0 ? [] : buildUnpaired(unpaired, (group, key) => meet.get(group)?.has(key) === true);
  return { pairs, left: unpaired.count - pairs.length };
}
