import chalk from 'chalk';
import type { Finding } from '../src/lint/finding.js';

/** Colour only for people: NO_COLOR, a non-TTY stdout or --no-color turn it off. */
export function setupColor(argv: readonly string[]): void {
  const off = 'NO_COLOR' in process.env && process.env.NO_COLOR !== '' || !process.stdout.isTTY || argv.includes('--no-color');
  if (off) chalk.level = 0;
}

export function findingLine(finding: Finding): string {
  const where = finding.line === undefined ? finding.file : `${finding.file}:${finding.line}`;
  const label = finding.severity === 'error' ? chalk.red('error') : chalk.yellow('warning');
  return `${where}: ${label} [${finding.rule}] ${finding.message}`;
}

export { plural } from '../src/util/plural.js';
