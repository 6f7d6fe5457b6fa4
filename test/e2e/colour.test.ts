import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN, runCli, tempLessonsRepo } from '../helpers/repo.js';

/** Colour reaches people on a terminal and nothing else: a real pseudo-terminal, through util-linux's script(1). */

function onTerminal(root: string, args: string[], env: Record<string, string | undefined>): string {
  const command = [process.execPath, BIN, ...args].map((word) => `'${word}'`).join(' ');
  const base: Record<string, string | undefined> = { ...process.env, TERM: 'xterm' };
  delete base.NO_COLOR;
  const result = spawnSync('script', ['-qec', command, '/dev/null'], { cwd: root, encoding: 'utf8', env: { ...base, ...env } });
  expect(result.status, result.stderr).toBe(1);
  return result.stdout;
}

/** A style's code (the terminal also gets the progress line's erase codes, which are not colour). */
const SGR = /\x1b\[[0-9;]*m/;

describe('colour', () => {
  const root = (): string => tempLessonsRepo({ 'lessons/cases/case-bad.md': '---\ntitle: Only a title\n---\n\nBody.\n' });

  it('marks lint errors in red on a terminal, and not under NO_COLOR, TERM=dumb, --no-color or in a pipe', () => {
    const repo = root();
    expect(onTerminal(repo, ['lint'], {})).toContain('\x1b[31merror\x1b[39m [schema]');
    for (const [args, env] of [[['lint'], { NO_COLOR: '1' }], [['lint'], { TERM: 'dumb' }], [['lint', '--no-color'], {}]] as const) {
      const text = onTerminal(repo, [...args], env);
      expect(text).toContain('error [schema]');
      expect(text).not.toMatch(SGR);
    }
    const piped = runCli(['lint'], { cwd: repo, env: { NO_COLOR: '' } });
    expect(piped.stdout).toContain('error [schema]');
    expect(piped.stdout).not.toMatch(SGR);
  });
});
