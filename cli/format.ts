import { isatty } from 'node:tty';
import { setColour } from '../src/util/style.js';

/**
 * Colour only for people: a terminal stdout, unless NO_COLOR, TERM=dumb or --no-color turn it
 * off. Whether stdout is a terminal is asked only when something is styled (src/util/style.ts).
 */
export function setupColor(argv: readonly string[]): void {
  const off = ('NO_COLOR' in process.env && process.env.NO_COLOR !== '') || process.env.TERM === 'dumb' || argv.includes('--no-color');
  setColour(off ? false : () => isatty(1));
}
