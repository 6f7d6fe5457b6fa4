import { describePlacement } from './format.js';
import type { CaseResult, ChosenLesson, EvalResult, RecallTally } from './run.js';
import { jsonReporter, type Reporters } from '../render/registry.js';

/** `lessons eval` as text: a line per case, then each failing case's misses and false positives with preflight's reasons. */
const share = (value: number | null): string => (value === null ? 'n/a' : String(value));

function tallyText(tally: RecallTally): string {
  return `${tally.selected}/${tally.expected}`;
}

function lessonLines(lesson: ChosenLesson, indent: string): string[] {
  return [`${indent}${lesson.id} (score ${lesson.score})`, ...lesson.reasons.map((reason) => `${indent}  ${reason}`)];
}

function caseDetail(result: CaseResult): string[] {
  const lines: string[] = result.note === null ? [] : [`  note: ${result.note}`];
  for (const miss of result.misses) {
    lines.push(`  missed ${miss.id}: ${describePlacement(miss, result.mode)}`);
    for (const reason of miss.reasons) lines.push(`    ${reason}`);
  }
  if (result.misses.length > 0) {
    lines.push(result.selected.length === 0 ? '  selected instead: nothing' : '  selected instead:');
    for (const lesson of result.selected) lines.push(...lessonLines(lesson, '    '));
  }
  if (result.false_positives.length > 0) {
    lines.push(result.no_match ? '  selected, where nothing should be:' : '  selected, but must not be:');
    for (const lesson of result.false_positives) lines.push(...lessonLines(lesson, '    '));
  }
  return lines;
}

function formatEvalText(result: EvalResult): string {
  const lines: string[] = [];
  for (const c of result.cases) {
    lines.push(`${c.passed ? 'ok  ' : 'FAIL'} ${c.mode === 'hook' ? '[hook] ' : ''}${c.name}`);
    if (!c.passed) lines.push(...caseDetail(c));
  }
  const passed = result.cases.filter((c) => c.passed).length;
  const { must, modes, negatives, thresholds } = result;
  lines.push(
    '',
    `${result.file}: ${passed} of ${result.cases.length} cases passed`,
    `recall ${share(result.recall)}: ${must.selected} of ${must.expected} must lessons selected or listed as related (task mode ${tallyText(modes.task)}, hook mode ${tallyText(modes.hook)}); policy minimum ${thresholds.min_recall}`,
    `applied ${share(result.applied.recall)}: ${result.applied.selected} of ${result.applied.expected} must lessons shown in full`,
    `false-positive rate ${share(result.false_positive_rate)}: ${negatives.false_positive} of ${negatives.cases} must-not and no-match cases selected what they must not; policy maximum ${thresholds.max_false_positive_rate}`,
  );
  if (result.related_on_no_match !== null) lines.push(`no-match cases: ${result.related_on_no_match} related entries each on average, ${result.tokens_on_no_match} printed tokens (median)`);
  if (result.rerank) lines.push(`rerank: the reviewer judged ${result.rerank.cases} task case${result.rerank.cases === 1 ? '' : 's'}${result.rerank.failed > 0 ? `, and failed on ${result.rerank.failed} (the plain ranking stood there)` : ''}`);
  lines.push(...(result.passed ? ['passed'] : result.failures.map((failure) => `failed: ${failure}`)));
  return `${lines.join('\n')}\n`;
}

export const evalReporters: Reporters<EvalResult> = { text: formatEvalText, json: jsonReporter };
