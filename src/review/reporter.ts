import { annotationLine, type AnnotationLevel } from '../render/github.js';
import { joinLines, jsonReporter, type Reporters } from '../render/registry.js';
import type { ReviewResult } from './review.js';
import { isBlocking, type ReviewFinding } from './findings.js';

function where(finding: ReviewFinding): string {
  if (finding.file === null) return '';
  return finding.line === null ? `${finding.file}: ` : `${finding.file}:${finding.line}: `;
}

function indent(label: string, text: string): string[] {
  if (text.trim() === '') return [];
  const [first, ...rest] = text.trim().split('\n');
  return [`    ${label}: ${first}`, ...rest.map((line) => `      ${line}`)];
}

/** The review for people: one block per finding, then a count. */
export function reviewText(result: ReviewResult): string[] {
  if (!result.ran) return ['nothing to review: no changes against the base and nothing uncommitted'];
  const lines: string[] = [];
  const scope = `${result.paths.length} file${result.paths.length === 1 ? '' : 's'}${result.base === null ? ' (uncommitted changes)' : ` since ${result.base}`}`;
  lines.push(`reviewed ${scope} against ${result.lessons.length === 0 ? 'no lessons' : `lessons: ${result.lessons.join(', ')}`}`);
  for (const cut of result.prompt.cut) lines.push(`note: ${cut}`);
  for (const finding of result.findings) {
    const blocking = isBlocking(finding, result.block_on) ? ' (blocking)' : '';
    lines.push(`${where(finding)}${finding.severity}${blocking} [${finding.rule}] ${finding.message}`);
    lines.push(...indent('evidence', finding.evidence), ...indent(finding.origin === 'lane' ? 'fix' : 'recommendation', finding.recommendation));
  }
  if (result.summary !== null && result.summary.trim() !== '') lines.push(`summary: ${result.summary.trim()}`);
  const blocking = result.findings.filter((finding) => isBlocking(finding, result.block_on)).length;
  const count = `${result.findings.length} finding${result.findings.length === 1 ? '' : 's'}`;
  lines.push(blocking > 0 ? `${count}, ${blocking} blocking (review.block_on: ${result.block_on.join(', ')})` : `${count} (advisory)`);
  return lines;
}

function level(finding: ReviewFinding, result: ReviewResult): AnnotationLevel {
  if (isBlocking(finding, result.block_on)) return 'error';
  return finding.severity === 'low' ? 'notice' : 'warning';
}

/** One GitHub annotation per finding: errors for blocking ones, notices for low ones. */
export function reviewAnnotations(result: ReviewResult): string[] {
  return result.findings.map((finding) => {
    const detail = [finding.message, finding.evidence && `Evidence: ${finding.evidence}`, finding.recommendation && `Fix: ${finding.recommendation}`];
    return annotationLine({
      level: level(finding, result),
      file: finding.file ?? undefined,
      line: finding.line ?? undefined,
      title: `lessons review: ${finding.rule} (${finding.severity})`,
      message: detail.filter(Boolean).join('\n'),
    });
  });
}

/** The review as data, each finding marked blocking or not. */
export function reviewJson(result: ReviewResult): unknown {
  return { ...result, findings: result.findings.map((finding) => ({ ...finding, blocking: isBlocking(finding, result.block_on) })) };
}

export const reviewReporters: Reporters<ReviewResult> = {
  text: (result) => joinLines(reviewText(result)),
  json: (result) => jsonReporter(reviewJson(result)),
  github: (result) => joinLines(reviewAnnotations(result)),
};
