import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findingsFromReview } from '../../src/review/findings.js';
import { askReviewer, type ReviewerAnswer } from '../../src/review/run.js';
import { printable } from '../../src/util/printable.js';
import { tempDir } from '../helpers/repo.js';
import { isAlive, waitUntilGone } from '../helpers/reviewer.js';

const pidFiles: string[] = [];

afterEach(() => {
  while (pidFiles.length > 0) {
    const file = pidFiles.pop()!;
    try {
      process.kill(Number(fs.readFileSync(file, 'utf8')), 'SIGKILL');
    } catch {
      // never started, or already gone
    }
  }
});

/** A reviewer written as a Node script; `{output}` and a pid file path are its arguments. */
function scriptReviewer(body: string): { command: string[]; pidFile: string } {
  const pidFile = path.join(tempDir(), 'grandchild.pid');
  pidFiles.push(pidFile);
  const script = `const { spawn, execFileSync } = require('node:child_process'); const fs = require('node:fs'); const [output, pidFile] = process.argv.slice(1);\n${body}`;
  return { command: [process.execPath, '-e', script, '{output}', pidFile], pidFile };
}

/** Starts `setsid sleep 60` (a new session, out of the reviewer's process group), its pid in pidFile. */
const SETSID_GRANDCHILD = (stdout: 'inherit' | 'ignore') =>
  `const child = spawn('setsid', ['sleep', '60'], { stdio: ['ignore', '${stdout}', 'ignore'] }); fs.writeFileSync(pidFile, String(child.pid)); child.unref();`;

const ANSWER = JSON.stringify({ summary: 'ok', findings: [] });

async function ask(command: string[], timeout_seconds = 20): Promise<ReviewerAnswer> {
  return askReviewer({ root: tempDir(), review: { command, timeout_seconds, max_output_bytes: 64 * 1024 }, schema: 'semantic-review', prompt: 'p\n' });
}

async function grandchildPid(pidFile: string): Promise<number> {
  for (let i = 0; i < 100 && !fs.existsSync(pidFile); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  return Number(fs.readFileSync(pidFile, 'utf8'));
}

describe('the review timeout bounds the whole run', () => {
  it('a setsid grandchild holding stdout open does not hold the run past its timeout, and is killed', async () => {
    const { command, pidFile } = scriptReviewer(`${SETSID_GRANDCHILD('inherit')} setTimeout(() => process.exit(0), 100);`);
    const started = Date.now();
    const answer = await ask(command, 1);
    expect(Date.now() - started).toBeLessThan(8000);
    expect(answer).toMatchObject({ ok: false, problem: { rule: 'reviewer-timeout' } });
    expect(await waitUntilGone(await grandchildPid(pidFile))).toBe(true);
  }, 30_000);

  it('a quiet setsid grandchild does not survive a run that succeeded', async () => {
    const { command, pidFile } = scriptReviewer(`${SETSID_GRANDCHILD('ignore')} fs.writeFileSync(output, ${JSON.stringify(ANSWER)});`);
    const answer = await ask(command);
    expect(answer).toEqual({ ok: true, data: { summary: 'ok', findings: [] } });
    const pid = await grandchildPid(pidFile);
    expect(await waitUntilGone(pid)).toBe(true);
    expect(isAlive(pid)).toBe(false);
  }, 30_000);

  it('an {output} the reviewer made a FIFO is not read, and the run ends', async () => {
    const { command } = scriptReviewer(`execFileSync('mkfifo', [output]);`);
    const answer = await ask(command, 5);
    expect(answer).toMatchObject({ ok: false, problem: { rule: 'reviewer-silent', message: expect.stringContaining('is not a regular file (a FIFO, socket or device)') } });
  }, 30_000);
});

describe('control characters from a reviewer or a lesson never reach the terminal', () => {
  const ESC = '\x1b';
  it('printable strips ESC, CSI, OSC and C0/C1 controls but newline and tab, keeping colour only when asked', () => {
    const hostile = `a${ESC}]0;owned${'\x07'}b${ESC}]8;;https://x.example${ESC}\\link${ESC}]8;;${ESC}\\ c${ESC}[2J${ESC}[1;1H\rd\x9b31me\x00f\x7f\tg\nh${ESC}[31mred${ESC}[0m`;
    expect(printable(hostile)).toBe('ablink cdef\tg\nhred');
    expect(printable(hostile, { keepColour: true })).toBe(`ablink cdef\tg\nh${ESC}[31mred${ESC}[0m`);
  });

  it("a reviewer's findings lose their escape sequences when they are read", () => {
    const [finding] = findingsFromReview(
      {
        summary: 's',
        findings: [{ severity: 'high', rule: `r${ESC}[2J`, message: `m${ESC}]52;c;aGk=${'\x07'}`, file: `f${ESC}[1m.ts`, line: 1, evidence: `e\r${ESC}[Kx`, recommendation: `fix\x9b2J` }],
      } as never,
      '/repo',
    );
    expect(finding).toMatchObject({ rule: 'r', message: 'm', file: 'f.ts', evidence: 'ex', recommendation: 'fix' });
  });
});

describe('lesson text an agent hook hands to the harness', () => {
  it('carries no escape sequences or control characters', async () => {
    const { formatLessons } = await import('../../src/agent/format.js');
    const lesson = { id: 'case-a', title: `Title\x1b]0;owned\x07 here\x1b[2J`, severity: 'high', path: 'lessons/cases/case-a.md', reasons: [], checklist: [`Check\r\x1b[Kthis`] };
    expect(formatLessons('Lessons:', [lesson as never])).toBe('Lessons:\n- [high] case-a: Title here (lessons/cases/case-a.md)\n  - [ ] Checkthis');
  });
});
