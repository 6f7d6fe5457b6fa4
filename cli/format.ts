import { isatty } from 'node:tty';
import { setColour } from '../src/util/style.js';

/**
 * Colour only for people: a terminal stdout, unless NO_COLOR, TERM=dumb or --no-color turn it
 * off. isatty(), not process.stdout.isTTY: making process.stdout costs a few milliseconds.
 */
export function setupColor(argv: readonly string[]): void {
  const off = ('NO_COLOR' in process.env && process.env.NO_COLOR !== '') || process.env.TERM === 'dumb' || !isatty(1) || argv.includes('--no-color');
  setColour(!off);
}
