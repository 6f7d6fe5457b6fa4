import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateRepo } from '../bench/synthetic.js';
import { committedLessonsRepo } from '../helpers/guard.js';
import { lessonFile } from '../helpers/lessons.js';
import { BIN, GIT_ENV, git, runCli, tempDir } from '../helpers/repo.js';

/** The built binary on a real pseudo-terminal (util-linux `script`): stdout and stderr both reach the terminal, so they come back as one text. */
function onTerminal(cwd: string, args: string[], env: Record<string, string> = {}): { text: string; exitCode: number } {
  const command = [process.execPath, BIN, ...args].map((word) => `'${word.replace(/'/g, `'\\''`)}'`).join(' ');
  const base: NodeJS.ProcessEnv = { ...process.env, ...GIT_ENV, TERM: 'xterm', ...env };
  if (env.NO_COLOR === undefined) delete base.NO_COLOR;
  const result = spawnSync('script', ['-qec', command, '/dev/null'], { cwd, encoding: 'utf8', env: base });
  return { text: result.stdout, exitCode: result.status ?? -1 };
}

describe('progress of long work on a terminal (built binary)', () => {
  it('index and lint count the lessons on a terminal, and say nothing with --json, --quiet, NO_COLOR or without a terminal', async () => {
    const root = tempDir();
    await generateRepo(root, 600, 3);
    fs.rmSync(path.join(root, 'lessons/index.json'));

    const index = onTerminal(root, ['index']);
    expect(index.exitCode).toBe(0);
    expect(index.text).toContain('\r\x1b[Kindex 250/600 lessons/');
    expect(index.text).toContain('\r\x1b[Kindex 600/600 lessons/');
    expect(index.text).toContain('index: writing lessons/index.json');
    // The line is cleared before the result is printed, so the result stands alone on its line.
    expect(index.text).toMatch(/\r\x1b\[K(\r\n)?wrote lessons\/index\.json \(600 lessons\)/);

    const lint = onTerminal(root, ['lint']);
    expect(lint.text).toContain('lint 600/600 lessons/');
    expect(lint.text).toContain('lint: checking ids, references and evidence');

    for (const [args, env] of [
      [['index', '--json'], {}],
      [['index', '--quiet'], {}],
      [['index'], { NO_COLOR: '1' }],
      [['lint', '--json'], {}],
      [['lint', '--quiet'], {}],
    ] as const) {
      if (args[0] === 'index') fs.rmSync(path.join(root, 'lessons/index.json'), { force: true });
      const quiet = onTerminal(root, [...args], env);
      expect(quiet.exitCode, args.join(' ')).toBe(args[0] === 'index' ? 0 : lint.exitCode);
      expect(quiet.text, args.join(' ')).not.toContain('\x1b[K');
      expect(quiet.text, args.join(' ')).not.toMatch(/\d+\/600/);
    }
    // A pipe (CI logs): nothing on stderr, the result on stdout.
    fs.rmSync(path.join(root, 'lessons/index.json'));
    const piped = runCli(['index'], { cwd: root, env: { NO_COLOR: '' } });
    expect(piped.exitCode).toBe(0);
    expect(piped.stderr).toBe('');
    expect(piped.stdout).toBe('wrote lessons/index.json (600 lessons)\n');
  });

  it('sources update counts the sources by name and says when it builds their search cache', async () => {
    const work = await committedLessonsRepo(lessonFile({ id: 'case-2026-02-01-action-tag-moved', title: 'A moved CI action tag ran foreign code', tags: ['ci'] }));
    const bare = path.join(tempDir(), 'platform.git');
    git(work, 'init', '-q', '--bare', '-b', 'main', bare);
    git(work, 'push', '-q', bare, 'main');
    const service = await committedLessonsRepo(lessonFile({ id: 'case-2026-05-01-token-in-log', title: 'A token printed in a CI log', tags: ['ci'] }));
    const policyFile = path.join(service, 'policy/workflow-policy.json');
    const policy = JSON.parse(fs.readFileSync(policyFile, 'utf8')) as { sources: unknown[] };
    policy.sources = [{ name: 'platform', url: bare, ref: 'main' }, { name: 'security', url: bare, ref: 'main' }];
    fs.writeFileSync(policyFile, `${JSON.stringify(policy, null, 2)}\n`);

    const update = onTerminal(service, ['sources', 'update']);
    expect(update.exitCode).toBe(0);
    expect(update.text).toContain('\r\x1b[Ksources 1/2 fetching platform');
    expect(update.text).toContain('\r\x1b[Ksources 2/2 fetching security');
    expect(update.text).toContain('\r\x1b[Ksources 2/2 reading source security');
    expect(update.text).toMatch(/\r\x1b\[Ksources: building the search cache of \d+ source lessons\r\x1b\[Kplatform: updated at /);
    expect(update.text).toContain('platform: updated at ');

    fs.rmSync(path.join(service, '.lessons/cache/sources-built.txt'));
    const quiet = onTerminal(service, ['sources', 'update', '--quiet']);
    expect(quiet.exitCode).toBe(0);
    expect(quiet.text).not.toContain('\x1b[K');
  });
});
