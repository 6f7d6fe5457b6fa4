import chalk from 'chalk';

/** Colour only for people: NO_COLOR, a non-TTY stdout or --no-color turn it off. */
export function setupColor(argv: readonly string[]): void {
  const off = 'NO_COLOR' in process.env && process.env.NO_COLOR !== '' || !process.stdout.isTTY || argv.includes('--no-color');
  if (off) chalk.level = 0;
}
