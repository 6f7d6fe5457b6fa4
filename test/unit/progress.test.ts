import { describe, expect, it } from 'vitest';
import { FILES_PER_STEP, fileSteps, progressFor } from '../../src/io/progress.js';

function stream(isTTY: boolean): { isTTY: boolean; text: string; write(text: string): void } {
  return {
    isTTY,
    text: '',
    write(text: string) {
      this.text += text;
    },
  };
}

describe('the progress reporter', () => {
  it('shows n/N and the name on a terminal, and clears the line at the end', () => {
    const tty = stream(true);
    const progress = progressFor('sources', { stream: tty, env: {}, quiet: false });
    progress.step(1, 2, 'platform');
    progress.step(2, 2, 'security');
    progress.end();
    expect(tty.text).toBe('\r\x1b[Ksources 1/2 platform\r\x1b[Ksources 2/2 security\r\x1b[K');
  });

  it('says a step without a count, and clears nothing when nothing was shown', () => {
    const tty = stream(true);
    const progress = progressFor('index', { stream: tty, env: {}, quiet: false });
    progress.end();
    expect(tty.text).toBe('');
    progress.say('writing lessons/index.json');
    progress.end();
    expect(tty.text).toBe('\r\x1b[Kindex: writing lessons/index.json\r\x1b[K');
  });

  it('counts files every FILES_PER_STEP and at the last one, not at each', () => {
    const tty = stream(true);
    const progress = progressFor('lint', { stream: tty, env: {}, quiet: false });
    const total = FILES_PER_STEP * 2 + 3;
    const step = fileSteps(progress, total);
    for (let done = 1; done <= total; done++) step(done, `lessons/cases/c${done}.md`);
    expect(tty.text.split('\r\x1b[K').filter(Boolean)).toEqual([
      `lint ${FILES_PER_STEP}/${total} lessons/cases/c${FILES_PER_STEP}.md`,
      `lint ${FILES_PER_STEP * 2}/${total} lessons/cases/c${FILES_PER_STEP * 2}.md`,
      `lint ${total}/${total} lessons/cases/c${total}.md`,
    ]);
  });

  it('is quiet without a TTY, under NO_COLOR, and with --json or --quiet', () => {
    for (const [isTTY, env, quiet] of [
      [false, {}, false],
      [true, { NO_COLOR: '1' }, false],
      [true, {}, true],
    ] as const) {
      const out = stream(isTTY);
      const progress = progressFor('sources', { stream: out, env, quiet });
      progress.step(1, 1, 'platform');
      progress.end();
      expect(out.text).toBe('');
    }
  });
});
