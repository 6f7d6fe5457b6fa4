import { style } from '../util/style.js';
import type { Finding } from '../lesson/finding.js';
import type { LintResult } from './lint.js';
import { plural } from '../util/plural.js';
import { joinLines, jsonReporter, type Reporters } from '../render/registry.js';

/** One finding for people; the severity is coloured when the terminal takes colour. */
export function findingLine(finding: Finding): string {
  const where = finding.line === undefined ? finding.file : `${finding.file}:${finding.line}`;
  const label = finding.severity === 'error' ? style.red('error') : style.yellow('warning');
  return `${where}: ${label} [${finding.rule}] ${finding.message}`;
}

function lintText(result: LintResult): string {
  const total = `${plural(result.lessons, 'lesson')} checked: ${plural(result.errors, 'error')}, ${plural(result.warnings, 'warning')}`;
  return joinLines([...result.findings.map(findingLine), total]);
}

export const lintReporters: Reporters<LintResult> = { text: lintText, json: jsonReporter };
