import { spawn } from 'node:child_process';
import fs from 'node:fs';

export interface DetachedRun {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** The file its stdout and stderr go to, created or emptied first. */
  output: string;
}

/** Starts `program` in a process group of its own that this process does not wait for. */
export function startDetached(program: string, args: readonly string[], run: DetachedRun): void {
  const fd = fs.openSync(run.output, 'w');
  try {
    const child = spawn(program, args, { cwd: run.cwd, detached: true, stdio: ['ignore', fd, fd], env: run.env });
    child.unref();
  } finally {
    fs.closeSync(fd);
  }
}
