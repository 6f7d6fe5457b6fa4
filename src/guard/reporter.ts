import type { GuardReport } from './guard.js';
import type { GuardFinding } from './finding.js';
import { GATE_REGISTRY } from './gates/registry.js';
import { STAGE_PROFILES } from './stages.js';
import { changeSectionMarkdown, changeSectionText } from './change-report.js';
import { annotationLine } from '../render/github.js';
import { joinLines, jsonReporter, type Reporters } from '../render/registry.js';

function where(finding: GuardFinding): string {
  if (finding.file !== undefined) return finding.line === undefined ? finding.file : `${finding.file}:${finding.line}`;
  return finding.commit !== undefined ? `commit ${finding.commit.slice(0, 12)}` : '(repository)';
}

/** The report for people: one line per finding, then the verdict. */
export function reportText(report: GuardReport): string {
  const lines = report.findings.map((finding) => `${where(finding)}: ${finding.level} [${finding.gate}] ${finding.message}`);
  if (report.change_lessons) lines.push(...changeSectionText(report.change_lessons));
  const { block, warn } = report.counts;
  const subject = `lessons guard (${report.stage})`;
  if (block > 0) {
    lines.push(`${subject}: blocked by ${block} finding${block === 1 ? '' : 's'}${warn > 0 ? `, ${warn} warning${warn === 1 ? '' : 's'}` : ''}`);
    const bypass = STAGE_PROFILES[report.stage].bypass;
    lines.push(`fix what each finding says${bypass ? `, or bypass the guard knowingly with \`${bypass}\`` : ''}`);
  }
  else if (warn > 0) lines.push(`${subject}: passed with ${warn} warning${warn === 1 ? '' : 's'}`);
  else lines.push(`${subject}: passed`);
  return `${lines.join('\n')}\n`;
}

/** GitHub Actions annotations (`::error file=…,line=…,title=…::message`), one line each. */
export function annotations(report: GuardReport): string {
  return joinLines(
    report.findings.map((finding) =>
      annotationLine({ level: finding.level === 'block' ? 'error' : 'warning', file: finding.file, line: finding.line, title: `lessons guard: ${finding.gate}`, message: finding.message }),
    ),
  );
}

function cell(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, '<br>');
}

/** The markdown report (the job summary, `--format markdown`): verdict, the level of each gate, the findings as a table, and in ci the lessons for the change. */
export function stepSummary(report: GuardReport): string {
  const { block, warn } = report.counts;
  const verdict = block > 0 ? `❌ blocked by ${block} finding${block === 1 ? '' : 's'}` : warn > 0 ? `⚠️ passed with ${warn} warning${warn === 1 ? '' : 's'}` : '✅ passed';
  const lines = [`## lessons guard (${report.stage}): ${verdict}`, ''];
  if (report.base !== null) lines.push(`Checked ${report.head.slice(0, 12)} against ${report.base.slice(0, 12)} (${report.base_from}).`, '');
  lines.push('| gate | level | findings |', '| --- | --- | --- |');
  for (const { name } of GATE_REGISTRY) {
    const count = report.findings.filter((finding) => finding.gate === name).length;
    lines.push(`| ${name} | ${report.levels[name]} | ${count} |`);
  }
  if (report.findings.length > 0) {
    lines.push('', '| level | gate | where | message |', '| --- | --- | --- | --- |');
    for (const finding of report.findings) {
      lines.push(`| ${finding.level} | ${finding.gate} | ${cell(where(finding))} | ${cell(finding.message)} |`);
    }
  }
  const summary = `${lines.join('\n')}\n\n`;
  return report.change_lessons ? summary + changeSectionMarkdown(report.change_lessons) : summary;
}

/** The PR comment (`--pr-comment <file>`): the section "Lessons for this change" alone. */
export function prComment(report: GuardReport): string | undefined {
  return report.change_lessons && changeSectionMarkdown(report.change_lessons);
}

export const guardReporters: Reporters<GuardReport> = { text: reportText, json: jsonReporter, markdown: stepSummary, github: annotations, summary: stepSummary };
