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
  const bytes = Buffer.from(text, 'utf8');
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
