import type { Issue } from '../finding.js';

/** Lint's and the lifecycle rules' findings as gate issues (the schema and promotion gates). */
export const fromLint = (findings: { rule: string; severity: 'error' | 'warning'; file: string; line?: number; message: string }[]): Issue[] =>
  findings.map(({ rule, severity, file, line, message }) => ({ rule, severity, file, ...(line === undefined ? {} : { line }), message }));
