import fs from 'node:fs';
import { sleepSync } from '../util/sleep.js';

/**
 * What the CLI prints, written to file descriptor 1 or 2 synchronously, as Node's own
 * process.stdout and process.stderr write to files and pipes on POSIX, without making those
 * streams: making one loads Node's stream modules, a few milliseconds and a megabyte of memory
 * on every preflight (Windows consoles keep Node's streams). A pipe left non-blocking by another
 * process and full is waited on; a reader that went away (EPIPE, `lessons list | head`) ends the
 * run quietly with its exit code, as git does.
 */
export function writeOutput(fd: 1 | 2, text: string): void {
  if (text === '') return;
  if (process.platform === 'win32') {
    (fd === 1 ? process.stdout : process.stderr).write(text);
    return;
  }
  writeText(fd, text);
}

/** How many UTF-16 units of text are encoded at a time: a 20 MB report is not copied whole into fresh memory, which costs about 4 ms a megabyte on a virtual machine. */
export const PIECE_UNITS = 1 << 18;

/** One buffer for the pieces: a unit is at most 3 bytes of UTF-8, a surrogate pair 4. */
let pieces: Buffer | undefined;

/** writeOutput() on POSIX, to any file descriptor: the text encoded as UTF-8 a piece at a time, never between a surrogate pair's halves. */
export function writeText(fd: number, text: string): void {
  if (text.length <= PIECE_UNITS) {
    writeBytes(fd, Buffer.from(text, 'utf8'));
    return;
  }
  pieces ??= Buffer.allocUnsafe(3 * PIECE_UNITS);
  for (let at = 0; at < text.length; ) {
    let end = Math.min(text.length, at + PIECE_UNITS);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
    writeBytes(fd, pieces.subarray(0, pieces.write(text.slice(at, end), 0, 'utf8')));
    at = end;
  }
}

function writeBytes(fd: number, bytes: Uint8Array): void {
  let done = 0;
  while (done < bytes.length) {
    try {
      done += fs.writeSync(fd, bytes, done, bytes.length - done);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') sleepSync(1); // a full pipe: let its reader drain it
      else if (code === 'EPIPE') process.exit(process.exitCode ?? 0);
      else throw error;
    }
  }
}
