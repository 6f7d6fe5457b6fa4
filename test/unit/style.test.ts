import { afterEach, describe, expect, it } from 'vitest';
import { setupColor } from '../../cli/format.js';
import { setColour, style } from '../../src/util/style.js';

describe('terminal styles', () => {
  afterEach(() => setColour(false));

  it('wraps text in its own SGR codes when colour is on, and leaves it plain when off', () => {
    setColour(true);
    expect(`${style.red('error')} in ${style.bold('x')}`).toBe('\x1b[31merror\x1b[39m in \x1b[1mx\x1b[22m');
    expect(style.dim('d') + style.yellow('w')).toBe('\x1b[2md\x1b[22m\x1b[33mw\x1b[39m');
    setColour(false);
    expect(style.red('error')).toBe('error');
  });

  it('asks whether the output takes colour once, when the first text is styled', () => {
    let asked = 0;
    setColour(() => ++asked > 0);
    expect(asked).toBe(0);
    expect(style.bold('a')).toBe('\x1b[1ma\x1b[22m');
    style.dim('b');
    expect(asked).toBe(1);
  });

  it('is off under NO_COLOR, TERM=dumb and --no-color without asking the terminal', () => {
    const saved = { NO_COLOR: process.env.NO_COLOR, TERM: process.env.TERM };
    try {
      for (const [env, argv] of [[{ NO_COLOR: '1' }, []], [{ TERM: 'dumb' }, []], [{}, ['lint', '--no-color']]] as const) {
        delete process.env.NO_COLOR;
        process.env.TERM = 'xterm';
        Object.assign(process.env, env);
        setupColor(argv);
        expect(style.red('x')).toBe('x');
      }
    } finally {
      for (const [key, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
  });
});
