import { describe, expect, it } from 'vitest';
import { progressFor } from '../../src/io/progress.js';

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
