/**
 * Terminal styles for output meant for people: plain text until setColour(true), which the CLI
 * calls when stdout is a terminal that takes colour (cli/format.ts). Four styles are all the
 * output uses, each opened and closed with its own SGR codes, so a styled part inside a line
 * leaves the rest of it as it was.
 */
let on = false;

export function setColour(value: boolean): void {
  on = value;
}

const sgr =
  (open: number, close: number) =>
  (text: string): string =>
    on ? `\x1b[${open}m${text}\x1b[${close}m` : text;

export const style = { bold: sgr(1, 22), dim: sgr(2, 22), red: sgr(31, 39), yellow: sgr(33, 39) };
