import { compareStrings } from '../util/compare.js';

/** One thing a checker found. Rules return these as data; reporters decide how to show them. */
export interface Finding {
  rule: string;
  severity: 'error' | 'warning';
  file: string;
  line?: number;
  field?: string;
  message: string;
}

export function compareFindings(a: Finding, b: Finding): number {
  return (
    compareStrings(a.file, b.file) ||
    (a.line ?? 0) - (b.line ?? 0) ||
    compareStrings(a.rule, b.rule) ||
    compareStrings(a.field ?? '', b.field ?? '') ||
    compareStrings(a.message, b.message)
  );
}

export function hasErrors(findings: readonly Finding[]): boolean {
  return findings.some((finding) => finding.severity === 'error');
}
