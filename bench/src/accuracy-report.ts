/**
 * Renders an accuracy run as markdown: per moment, per repository, per merge kind, the
 * calibration folds and the dependency-channel analysis. Strings only; the bench writes the file.
 */
import { EVIDENCE_DEFAULTS, OUT_OF_FOLD_EVIDENCE, OUT_OF_FOLD_RISK, type AccuracyResult } from './accuracy-run.js';
import type { EvalCase } from './case-set.js';
import { repoName } from './case-set.js';
import { rocAuc } from '../../src/replay/metrics.js';
import { intentWeightFor } from '../../src/replay/product-bounds.js';
import { num, pr, table } from './render-markdown.js';
import { ALL_MOMENTS } from './scenario-moments.js';
import { figures, indicesWhere, type Predictor } from './summarize.js';

const HOUR = 3_600_000;
const PRIMARY = 'both-0.5';

function predictorTable(predictors: readonly Predictor[], labels: readonly boolean[], index: readonly number[]): string {
  return table(
    ['predictor', 'ROC-AUC', 'TA precision / recall (flagged)', 'RA precision / recall (flagged)'],
    predictors.map((p) => {
      const f = figures(p, labels, index);
      return [f.name, num(f.auc), f.ta ? pr(f.ta) : f.flag ? `flag: ${pr(f.flag)}` : '—', pr(f.ra)];
    }),
  );
}

function foldTable(result: AccuracyResult, cases: readonly EvalCase[], labels: readonly boolean[]): string {
  const oof = result.predictors.find((p) => p.name.includes('out-of-fold'));
  const rows = [
    ...result.folds.map((f) => ({ name: `held out: ${repoName(f.heldOut)}`, fit: f.fit, repo: f.heldOut })),
    ...(result.allRepoFit ? [{ name: 'all three (in-sample)', fit: result.allRepoFit, repo: null }] : []),
  ];
  return table(
    [
      'fold',
      'ω overlap / proximity / dependency / tree / breadth',
      'γ',
      'half-life h',
      'floor',
      'adjacency',
      'proximity lines',
      'breadth files',
      'τ_TA',
      'τ_RA',
      'intent weight',
      'train AUC',
      'train RA recall',
      'held-out AUC',
      'held-out TA P / R',
      'held-out RA P / R',
    ],
    rows.map(({ name, fit, repo }) => {
      const w = fit.weights;
      const held =
        repo && oof
          ? figures(
              oof,
              labels,
              indicesWhere(cases, (c) => c.repo === repo && c.moment === PRIMARY),
            )
          : null;
      const intent = intentWeightFor(w, fit.setting.breadthFiles, fit.tauTA, fit.tauRA);
      return [
        name,
        `${w.overlap} / ${w.proximity} / ${w.dependency} / ${w.tree} / ${w.breadth ?? 0}`,
        fit.setting.gamma,
        fit.setting.halfLifeMs / HOUR,
        fit.setting.recencyFloor,
        String(fit.setting.adjacency),
        fit.setting.proximityLines,
        fit.setting.breadthFiles,
        num(fit.tauTA),
        num(fit.tauRA),
        intent === null ? '—' : intent,
        num(fit.trainAuc),
        num(fit.trainRaRecall),
        held ? num(held.auc) : '—',
        held ? pr(held.ta) : '—',
        held ? pr(held.ra) : '—',
      ];
    }),
  );
}

function mergeKindTable(result: AccuracyResult, cases: readonly EvalCase[], labels: readonly boolean[]): string {
  const kinds = [...new Set(cases.map((c) => c.mergeKind))].sort();
  const pick = (needle: string): Predictor | undefined => result.predictors.find((p) => p.name.includes(needle));
  const shown = [
    pick('number of shared'),
    pick('gap signal'),
    pick('reference defaults'),
    pick('calibrated values'),
    pick(OUT_OF_FOLD_RISK),
    pick(OUT_OF_FOLD_EVIDENCE),
  ].filter((p): p is Predictor => p !== undefined);
  return table(
    ['merge kind', 'n', 'conflicts', ...shown.map((p) => `AUC: ${p.name}`), ...shown.filter((p) => p.raFlags).map((p) => `RA P / R: ${p.name}`)],
    kinds.map((kind) => {
      const index = indicesWhere(cases, (c) => c.moment === PRIMARY && c.mergeKind === kind);
      const f = shown.map((p) => figures(p, labels, index));
      return [kind, index.length, f[0]?.positives ?? 0, ...f.map((x) => num(x.auc)), ...f.filter((x) => x.ra).map((x) => pr(x.ra))];
    }),
  );
}

function dependencySection(result: AccuracyResult, cases: readonly EvalCase[], labels: readonly boolean[]): string {
  const rows: (string | number)[][] = [];
  for (const moment of ['both-0.5', 'final']) {
    const clean = indicesWhere(cases, (c) => c.moment === moment && !c.label);
    const conflicts = indicesWhere(cases, (c) => c.moment === moment && c.label);
    const dep = (index: number[]) => index.map((i) => result.dependencyScores[i]!);
    const cross = clean.map((i) => cases[i]!.dependency.crossImport);
    const hazard = clean.filter((i) => cases[i]!.dependency.breakHazard).length;
    const fixup = conflicts.map((i) => cases[i]!.dependency.fixupCoupled === true);
    rows.push([
      moment,
      clean.length,
      cross.filter(Boolean).length,
      num(rocAuc(dep(clean), cross)),
      hazard,
      conflicts.length,
      fixup.filter(Boolean).length,
      num(rocAuc(dep(conflicts), fixup)),
      num(
        rocAuc(
          dep([...clean, ...conflicts]),
          [...clean, ...conflicts].map((i) => labels[i]!),
        ),
      ),
    ]);
  }
  const only = figures(
    result.dependencyOnlyRA,
    labels,
    indicesWhere(cases, (c) => c.moment === PRIMARY),
  );
  return [
    table(
      [
        'moment',
        'clean merges',
        'cross-side import (exposure)',
        'AUC r_dep vs exposure',
        'break hazard (deleted/renamed module still imported)',
        'conflicts',
        'coupled resolver fix-up',
        'AUC r_dep vs fix-up (conflicts)',
        'AUC r_dep vs conflict',
      ],
      rows,
    ),
    '',
    `RA forced by the dependency channel alone under the reference defaults at ${PRIMARY}: ${pr(only.ra)} (precision / recall of those RAs against the conflict label).`,
  ].join('\n');
}

/**
 * The blocking rule measured (docs/decisions/blocking-rule.md): per repository and pooled, under
 * both labels — any conflict, and a conflict in a file the config does not ignore (the fair one:
 * a conflict only in an ignored file is one the product is told not to watch, so it is a negative).
 */
function blockingRuleSection(result: AccuracyResult, cases: readonly EvalCase[]): string | null {
  const find = (name: string): Predictor | undefined => result.predictors.find((p) => p.name === name);
  const evidence = find(OUT_OF_FOLD_EVIDENCE);
  const risk = find(OUT_OF_FOLD_RISK);
  const product = find(EVIDENCE_DEFAULTS);
  if (!evidence || !risk || !product) return null;
  const labelSets = [
    ['any conflict', cases.map((c) => c.label)],
    ['fair (non-ignored file)', cases.map((c) => c.fairLabel)],
  ] as const;
  const rows: (string | number)[][] = [];
  const scopes = [
    ...[...new Set(cases.map((c) => c.repo))].sort().map((repo) => [repoName(repo), (c: EvalCase) => c.repo === repo] as const),
    ['pooled', () => true] as const,
  ];
  for (const moment of ['both-0.25', PRIMARY, 'both-0.75', 'final']) {
    for (const [scope, keep] of scopes) {
      if (moment !== PRIMARY && scope !== 'pooled') continue;
      const index = indicesWhere(cases, (c) => c.moment === moment && keep(c));
      if (index.length === 0) continue;
      for (const [labelName, labels] of labelSets) {
        const e = figures(evidence, labels, index);
        const r = figures(risk, labels, index);
        const d = figures(product, labels, index);
        rows.push([moment, scope, labelName, `${index.length} / ${e.positives}`, num(r.auc), num(e.auc), pr(e.ta), pr(e.ra), pr(d.ta), pr(r.ta), pr(r.ra)]);
      }
    }
  }
  return table(
    [
      'moment',
      'scope',
      'label',
      'n / conflicts',
      'AUC: R without merge (out of fold)',
      'AUC: R with merge channel (out of fold)',
      'evidence rule TA P / R (out-of-fold τ_TA)',
      '**evidence rule RA P / R**',
      'evidence rule, DEFAULTS: TA P / R',
      'risk rule TA P / R (out of fold)',
      'risk rule RA P / R (out of fold)',
    ],
    rows,
  );
}

export interface ReportHeader {
  readonly dataDir: string;
  readonly mode: string;
  readonly seconds: number;
  readonly command: string;
}

export function renderAccuracyReport(result: AccuracyResult, cases: readonly EvalCase[], header: ReportHeader): string {
  const labels = cases.map((c) => c.label);
  const primary = indicesWhere(cases, (c) => c.moment === PRIMARY);
  const out: string[] = [
    '# Accuracy on real merge history',
    '',
    `Command: \`${header.command}\` — mode: ${header.mode}; data: \`${header.dataDir}\`; ${primary.length} scenarios, ${primary.filter((i) => labels[i]).length} conflicting; ${header.seconds.toFixed(1)} s.`,
    'Label: the final merge conflicted (`git merge-tree`). Precision / recall as "P / R (flagged)". The engine runs through `toAgent` (the CLI adapter) with `now` = the moment.',
    'Out-of-fold scores come from three different fitted models (one per held-out repository), so the pooled out-of-fold ROC-AUC mixes scales; the per-repository tables are the honest held-out figures.',
    `Consistency: max |engine risk − re-applied noisy-OR| under DEFAULTS = ${header.mode === 'smoke' ? num(result.recombinationError) : result.recombinationError.toExponential(2)}.`,
    '',
  ];
  const blocking = blockingRuleSection(result, cases);
  if (blocking) {
    out.push(
      '## The blocking rule: block on evidence, warn on prediction',
      '',
      "Evidence = the product's merge channel at that moment: `git merge-tree` of the two sides' states conflicts in a non-ignored file (bench/data/merge-evidence.dev.jsonl, made by bench/accuracy-evidence.mjs from the real histories). Evidence rule: RA only on evidence; TA at R ≥ τ_TA or on evidence. Risk rule: RA at R ≥ τ_RA (the seed's rule). Thresholds and weights out of fold by repository; the evidence RA has no threshold to fit.",
      '',
      blocking,
      '',
    );
  }
  for (const moment of ALL_MOMENTS) {
    const index = indicesWhere(cases, (c) => c.moment === moment);
    if (index.length === 0) continue;
    out.push(`## Moment ${moment}${moment === PRIMARY ? ' (primary target)' : ''}`, '', predictorTable(result.predictors, labels, index), '');
  }
  for (const repo of [...new Set(cases.map((c) => c.repo))].sort()) {
    const index = indicesWhere(cases, (c) => c.moment === PRIMARY && c.repo === repo);
    out.push(
      `## ${repoName(repo)} at ${PRIMARY} (${index.length} scenarios, ${index.filter((i) => labels[i]).length} conflicting)`,
      '',
      predictorTable(result.predictors, labels, index),
      '',
    );
  }
  out.push(`## By merge kind at ${PRIMARY}`, '', mergeKindTable(result, cases, labels), '');
  if (result.folds.length > 0)
    out.push('## Calibration folds (fit at both-0.5 on two repositories, scored on the third)', '', foldTable(result, cases, labels), '');
  if (result.allRepoFit) {
    const entries = Object.entries(result.allRepoFit.sensitivity).sort(([x], [y]) => x.localeCompare(y, 'en', { numeric: true }));
    out.push(
      '## Sensitivity (all three repositories, training objective J = AUC + 0.25 · RA recall − 2 · RA precision shortfall below 0.85, thresholds within the product bounds; best J with one value fixed)',
      '',
      table(
        ['value fixed', 'best J'],
        entries.map(([k, v]) => [k, num(v)]),
      ),
      '',
    );
  }
  out.push('## Dependency channel (reference setting, r_dep unweighted)', '', dependencySection(result, cases, labels), '');
  return out.join('\n');
}
