import type { Link } from '../engine/types.js';

/**
 * `watch --json`: one NDJSON line per change of an advisory between two consecutive scans.
 * A pair's advisory is *raised* when it appears, *changed* when its level, who steers, or its
 * shared files change (or the risk moves by RISK_STEP or more), *cleared* when it is gone.
 * A cleared event carries the pair's risk now (its clear link's, or 0 when the pair is no longer
 * listed at all) and nobody who steers: the advisory it ends is over, and the old risk and steer
 * would tell a consumer the opposite.
 * Versioned by `schema`; a line only grows within a version.
 */
export const WATCH_EVENT_SCHEMA = 'airspace-hooks/watch-event@1';
const RISK_STEP = 0.05;

export interface AdvisoryEvent {
  readonly schema: typeof WATCH_EVENT_SCHEMA;
  readonly type: 'raised' | 'changed' | 'cleared';
  readonly at: number;
  readonly pair: readonly [string, string];
  readonly level: 'TA' | 'RA' | 'clear';
  readonly risk: number;
  readonly steer: string | null;
  readonly files: readonly string[];
}

/** What the events read of a link: a scan's links, or the advisories a resident's event carries. */
export type AdvisoryLink = Pick<Link, 'a' | 'b' | 'level' | 'risk' | 'steer'> & { readonly sharedFiles: readonly { readonly path: string }[] };

/** `after` is every link of the new scan (clear ones included): a cleared pair's risk is read from it. */
export function advisoryEvents(before: readonly AdvisoryLink[], after: readonly AdvisoryLink[], at: number): AdvisoryEvent[] {
  const now = new Map(after.map((link) => [key(link), link]));
  const previous = new Map(before.filter(advisory).map((link) => [key(link), link]));
  const events: AdvisoryEvent[] = [];
  for (const link of after.filter(advisory)) {
    const old = previous.get(key(link));
    previous.delete(key(link));
    if (old === undefined) events.push(event('raised', link, at));
    else if (changed(old, link)) events.push(event('changed', link, at));
  }
  for (const gone of previous.values()) {
    const risk = now.get(key(gone))?.risk ?? 0;
    events.push({ ...event('cleared', gone, at), level: 'clear', risk: rounded(risk), steer: null });
  }
  return events;
}

function changed(a: AdvisoryLink, b: AdvisoryLink): boolean {
  return (
    a.level !== b.level || (a.steer ?? null) !== (b.steer ?? null) || Math.abs(a.risk - b.risk) >= RISK_STEP || files(a).join('\0') !== files(b).join('\0')
  );
}

function event(type: AdvisoryEvent['type'], link: AdvisoryLink, at: number): AdvisoryEvent {
  return {
    schema: WATCH_EVENT_SCHEMA,
    type,
    at,
    pair: [link.a, link.b],
    level: link.level,
    risk: rounded(link.risk),
    steer: link.steer ?? null,
    files: files(link),
  };
}

const advisory = (link: AdvisoryLink) => link.level !== 'clear';
const rounded = (risk: number) => Math.round(risk * 1000) / 1000;
const key = (link: AdvisoryLink) => [link.a, link.b].sort().join('\0');
const files = (link: AdvisoryLink) => link.sharedFiles.map((f) => f.path).sort();
