/**
 * Text a lesson or a reviewer wrote, made safe to print to a terminal. An escape sequence in
 * a finding or a title could move the cursor, clear the screen, retitle the window, write the
 * clipboard (OSC 52) or hide a link (OSC 8); a carriage return can overwrite what was printed.
 */

/**
 * ESC sequences (CSI, OSC, DCS/SOS/PM/APC strings, two-character ones), the 8-bit CSI, and
 * single controls: C0 but tab and newline, DEL, C1. Sequences first, so a kept one stays whole.
 */
const UNPRINTABLE = /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[PX^_][^\x1b]*(?:\x1b\\)?|[ -/]*[0-~])?|\x9b[0-?]*[ -/]*[@-~]|[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;
/** Select Graphic Rendition (colour) sequences, the only ones our own output writes. */
const SGR = /^\x1b\[[0-9;]*m$/;

/**
 * `text` without control characters (newline and tab stay) and escape sequences; with
 * `keepColour`, colour sequences (SGR) stay, so coloured output the CLI composed survives.
 */
export function printable(text: string, options: { keepColour?: boolean } = {}): string {
  return text.replace(UNPRINTABLE, (match) => (options.keepColour && SGR.test(match) ? match : ''));
}
