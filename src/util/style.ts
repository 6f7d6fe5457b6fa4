/**
 * Terminal styles for output meant for people: plain text unless setColour() says the output
 * takes colour (cli/format.ts). It may say so with a function, asked when the first styled text
 * is made: most runs style nothing, and finding out whether stdout is a terminal loads Node's
 * tty and net modules. Four styles are all the output uses, each opened and closed with its own
 * SGR codes, so a styled part inside a line leaves the rest of it as it was.
 */
let on: boolean | (() => boolean) = false;

export function setColour(value: boolean | (() => boolean)): void {
  on = value;
}

const sgr =
  (open: number, close: number) =>
  (text: string): string => {
    if (typeof on === 'function') on = on();
    return on ? `\x1b[${open}m${text}\x1b[${close}m` : text;
  };

export const style = { bold: sgr(1, 22), dim: sgr(2, 22), red: sgr(31, 39), yellow: sgr(33, 39) };
