import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/repo.js';

const COMMANDS = ['preflight', 'guard', 'hooks', 'index', 'hook', 'lint', 'new', 'show', 'list', 'review', 'capture', 'accept', 'promote', 'apply', 'retire', 'report', 'init', 'export', 'ask', 'mcp', 'eval', 'doctor', 'sources', 'spec'];

/** The help of every command comes from one renderer (cli/help-text.ts), whichever parser reads its command line. */
describe('every command has the same help page (built binary)', () => {
  it.each(COMMANDS)('%s: usage, what it does, options, then an example, the same for `help <command>` and `<command> --help`', (command) => {
    const asked = runCli(['help', command]);
    const flag = runCli([command, '--help']);
    expect(asked).toEqual(flag);
    expect(asked.exitCode).toBe(0);
    // The hook's stdout is the harness's answer: its help goes to stderr.
    const page = command === 'hook' ? asked.stderr : asked.stdout;
    expect(page).toMatch(new RegExp(`^usage: lessons ${command}\\b.*\\n(?: {7}lessons ${command}\\b.*\\n)*\\n[^\\n]+\\n\\n`));
    expect(page).toMatch(/\nOptions:\n(?:.*\n)*? {2}-C <dir> {14}Run as if started in <dir> \(like git -C\)\n {2}-h, --help {12}Show this help\n/);
    expect(page).toMatch(new RegExp(`\\n\\nexample: (echo .* \\| )?lessons ${command}\\b[^\\n]*\\n$`));
  });

  it('shows the values an option takes and its default where its description does not', () => {
    const page = runCli(['help', 'new']).stdout;
    expect(page).toContain('  --level <value>       Which level the lesson is\n                        (one of case, pattern, principle; default case)\n');
    expect(runCli(['help', 'promote']).stdout).toContain('  --title <value>       What the sources have in common, in a short sentence\n                        (required)\n');
  });
});
