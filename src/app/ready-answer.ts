import { formatAge } from '../messages/hooks-and-check.js';
import type { AgentFactsReport, AirspaceReport } from '../report/check-report.js';
import { renderReportText } from '../report/render-text.js';
import { createStyle } from '../report/terminal-style.js';
import type { ReadyPart } from '../resident/ready-file.js';
import { DryRunRefused, RunCutError, runAirspace } from '../run/run-airspace.js';
import type { Sensing } from '../run/sensing.js';
import { hookErrorText } from './hook.js';

/**
 * A pre-commit's answer rendered ahead of the hook (docs/decisions/resident.md, "Answers the shell
 * serves"): the run `hook pre-commit` makes, judged at `at`, writing nothing (`dryRun`), its stderr
 * as the hook would print it — with every age ("traffic as of 3m ago") left for the shell to
 * compute at the moment it serves. null when the hook would not simply print and pass: a cut run,
 * a failed-closed one, a block, or a text this cannot template.
 */
export interface ReadyRenderInput {
  readonly cwd: string;
  readonly colors: boolean;
  readonly at: number;
  readonly sensing: Sensing;
  readonly signal?: AbortSignal;
  /** The run of a commit the shell answered: it writes its risk history as the hook would have. */
  readonly record?: boolean;
}

export interface ReadyRender {
  /** What the shell prints: the header says how long this judgement took. */
  readonly parts: ReadyPart[];
  /** The same with that duration left out: what two renders of one state share. */
  readonly comparable: string;
}

export async function renderReadyPreCommit(input: ReadyRenderInput): Promise<ReadyRender | null> {
  let outcome: Awaited<ReturnType<typeof runAirspace>>;
  try {
    outcome = await runAirspace(
      { kind: 'pre-commit', cwd: input.cwd, json: false },
      { startedAt: performance.now(), at: input.at, dryRun: input.record !== true, sensing: input.sensing, ...(input.signal ? { signal: input.signal } : {}) },
    );
  } catch (error) {
    if (error instanceof RunCutError || error instanceof DryRunRefused) return null;
    throw error;
  }
  if (outcome.idle) return { parts: [], comparable: '' };
  const reports = outcome.judgements.map((j) => j.report);
  // A pre-commit judges one line of work: one report, whose marks are its own.
  if (reports.length !== 1) return null;
  if (outcome.failedClosed || reports.some((report) => report.verdict?.block === true)) return null;
  const style = createStyle(input.colors);
  const lines = (render: (report: AirspaceReport) => string) =>
    hookErrorText(reports, outcome.notes, render)
      .map((text) => (text.endsWith('\n') ? text : `${text}\n`))
      .join('');
  const sinces: number[] = [];
  const template = lines((report) => renderReportText(withAgeMarks(report, sinces), style));
  const parts = templateParts(template, sinces);
  // The template must give back the hook's own text at `at`, or it is not served.
  if (parts === null || materialize(parts, input.at) !== lines((report) => renderReportText(report, style))) return null;
  const timeless = lines((report) => renderReportText(withAgeMarks({ ...report, scanned: { ...report.scanned, durationMs: 0 } }, []), style));
  return { parts, comparable: timeless };
}

/** The text the shell prints at `now` (bin/airspace-hooks-ready computes the ages the same way). */
export function materialize(parts: readonly ReadyPart[], now: number): string {
  return parts.map((part) => ('since' in part ? formatAge(now - part.since) : part.text)).join('');
}

const DAY_MS = 86_400_000;
/** Ages of this many days and more stand for marks: `formatAge` prints `<FIRST_MARK + i>d`, an age no report has. */
const FIRST_MARK = 7_300_000_000;
const MARK = /7300\d{6}d/g;

/**
 * The report with each age replaced by a mark, and the moment each age counts from in `sinces`.
 * Marks keep the ages' order (the report compares the user's fetch with ours), equal ages share one.
 */
function withAgeMarks(report: AirspaceReport, sinces: number[]): AirspaceReport {
  const at = report.scanned.at;
  const { fetch, graph } = report.scanned;
  const ages = [
    fetch.ageMs,
    fetch.userFetchAgeMs,
    graph.builtAt === null ? null : at - graph.builtAt,
    ...report.agents.map((agent) => agent.beaconAgeMs ?? null),
  ];
  const ranked = [...new Set(ages.filter((age): age is number => age !== null))].sort((x, y) => x - y);
  sinces.splice(0, sinces.length, ...ranked.map((age) => Math.round(at - age)));
  const mark = (ageMs: number) => (FIRST_MARK + ranked.indexOf(ageMs)) * DAY_MS;
  const agents = report.agents.map((agent): AgentFactsReport => (agent.beaconAgeMs === undefined ? agent : { ...agent, beaconAgeMs: mark(agent.beaconAgeMs) }));
  return {
    ...report,
    agents,
    scanned: {
      ...report.scanned,
      fetch: {
        ...fetch,
        ageMs: fetch.ageMs === null ? null : mark(fetch.ageMs),
        userFetchAgeMs: fetch.userFetchAgeMs === null ? null : mark(fetch.userFetchAgeMs),
      },
      graph: { ...graph, builtAt: graph.builtAt === null ? null : at - mark(at - graph.builtAt) },
    },
  };
}

/** The template cut at its marks; null when a mark is not one this render made. */
function templateParts(template: string, sinces: readonly number[]): ReadyPart[] | null {
  const parts: ReadyPart[] = [];
  let last = 0;
  for (const match of template.matchAll(MARK)) {
    const since = sinces[Number(match[0].slice(0, -1)) - FIRST_MARK];
    if (since === undefined) return null;
    if (match.index > last) parts.push({ text: template.slice(last, match.index) });
    parts.push({ since });
    last = match.index + match[0].length;
  }
  if (last < template.length) parts.push({ text: template.slice(last) });
  return parts;
}
