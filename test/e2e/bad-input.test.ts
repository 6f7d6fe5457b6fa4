import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateRepo } from '../bench/synthetic.js';
import { lessonText } from '../helpers/lessons.js';
import { BIN, runCli, tempDir, tempLessonsRepo, writeFiles } from '../helpers/repo.js';

const GOOD = lessonText({ id: 'case-a' });

/** Runs lint on a repo holding one good lesson plus `files`; returns the CLI result. */
function lintWith(files: Record<string, string | Buffer>, setup?: (root: string) => void) {
  const root = tempLessonsRepo({ 'lessons/cases/case-a.md': GOOD });
  writeFiles(root, files);
  setup?.(root);
  const before = snapshot(root);
  const result = runCli(['lint'], { cwd: root });
  expect(snapshot(root)).toEqual(before);
  return result;
}

/** The repository's files, without its git-ignored local state (.lessons/: lint keeps its file cache there). */
function snapshot(root: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
    const full = path.join(entry.parentPath, entry.name);
    const rel = path.relative(root, full);
    if (entry.isFile() && !rel.startsWith(`.lessons${path.sep}`)) files[rel] = fs.readFileSync(full, 'base64');
  }
  return files;
}

function expectClearFailure(result: ReturnType<typeof runCli>, file: string, message: string): void {
  expect(result.exitCode).toBe(1);
  expect(result.stdout).toContain(`${file}`);
  expect(result.stdout).toContain(message);
  expect(result.stdout + result.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
}

describe('lint on bad input (built binary)', () => {
  it('malformed YAML', () => {
    const result = lintWith({ 'lessons/cases/case-b.md': '---\nid: case-b\ntitle: a: b: c\n---\n' });
    expectClearFailure(result, 'lessons/cases/case-b.md:3: error [yaml]', 'malformed YAML in frontmatter');
  });

  it('missing frontmatter', () => {
    const result = lintWith({ 'lessons/cases/case-b.md': '# Just a heading\n\nNo fields.\n' });
    expectClearFailure(result, 'lessons/cases/case-b.md:1: error [frontmatter]', 'missing frontmatter: expected a file that starts with a `---` line');
  });

  it('unterminated frontmatter', () => {
    const result = lintWith({ 'lessons/cases/case-b.md': '---\nid: case-b\ntitle: B\n\n## Situation\n' });
    expectClearFailure(result, 'lessons/cases/case-b.md:1: error [frontmatter]', 'unterminated frontmatter: no closing `---` line');
  });

  it('empty file', () => {
    const result = lintWith({ 'lessons/cases/case-b.md': '' });
    expectClearFailure(result, 'lessons/cases/case-b.md:1: error [frontmatter]', 'file is empty');
  });

  it('byte order mark', () => {
    const result = lintWith({ 'lessons/cases/case-b.md': `\uFEFF${lessonText({ id: 'case-b' })}` });
    expectClearFailure(result, 'lessons/cases/case-b.md:1: error [format]', 'byte order mark: save it as UTF-8 without BOM');
  });

  it('CRLF line endings', () => {
    const result = lintWith({ 'lessons/cases/case-b.md': lessonText({ id: 'case-b' }).replace(/\n/g, '\r\n') });
    expectClearFailure(result, 'lessons/cases/case-b.md:1: error [format]', 'CRLF line endings: convert it to LF');
  });

  it('invalid UTF-8', () => {
    const bytes = Buffer.concat([Buffer.from('---\nid: case-b\ntitle: caf'), Buffer.from([0xc3, 0x28]), Buffer.from('\n---\n')]);
    const result = lintWith({ 'lessons/cases/case-b.md': bytes });
    expectClearFailure(result, 'lessons/cases/case-b.md:3: error [encoding]', 'invalid UTF-8 at byte 25: save the file as UTF-8');
  });

  it('a file over 1 MiB', () => {
    const result = lintWith({ 'lessons/cases/case-b.md': `${lessonText({ id: 'case-b' })}\n${'x'.repeat(1024 * 1024)}\n` });
    expectClearFailure(result, 'lessons/cases/case-b.md: error [file]', 'over the 1 MiB limit for a lesson');
  });

  it('a directory named like a lesson', () => {
    const result = lintWith({}, (root) => fs.mkdirSync(path.join(root, 'lessons/cases/x.md')));
    expectClearFailure(result, 'lessons/cases/x.md: error [file]', 'is a directory, not a lesson file');
  });

  it('a symlink that leads outside the repository is skipped with a warning', () => {
    const outside = path.join(tempDir(), 'case-b.md');
    fs.writeFileSync(outside, lessonText({ id: 'case-b' }));
    const result = lintWith({}, (root) => fs.symlinkSync(outside, path.join(root, 'lessons/cases/case-b.md')));
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('lessons/cases/case-b.md: warning [file] symbolic link leads outside the repository: skipped');
    expect(result.stdout).toContain('1 lesson checked: 0 errors, 1 warning');
  });

  it('a symlink inside the repository is followed', () => {
    const result = lintWith({ 'drafts/case-b.md': lessonText({ id: 'case-b' }) }, (root) =>
      fs.symlinkSync(path.join(root, 'drafts/case-b.md'), path.join(root, 'lessons/cases/case-b.md')),
    );
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('2 lessons checked: 0 errors, 0 warnings');
  });

  it.each([
    ['../../x', 'lessons/cases/case-b.md'],
    ['Case-B', 'lessons/cases/case-b.md'],
    ['case b', 'lessons/cases/case-b.md'],
  ])('an id like %j', (id, file) => {
    const result = lintWith({ [file]: lessonText({ id }) });
    expectClearFailure(result, `${file}:2: error [schema]`, 'id must be kebab-case');
  });
});

describe('usage errors (built binary)', () => {
  it('--help lists every command, the hot-path ones included', () => {
    const result = runCli(['--help']);
    expect(result.exitCode).toBe(0);
    for (const command of ['preflight', 'guard', 'hooks', 'hook', 'lint', 'index', 'new', 'capture', 'promote', 'review', 'init', 'export', 'ask', 'mcp']) {
      expect(result.stdout).toMatch(new RegExp(`^  lessons ${command}\\b`, 'm'));
    }
  });

  it('completes the options of a fast command from the same table its parser and --help use', () => {
    const completion = runCli(['--get-yargs-completions', 'lessons', 'guard', '--']);
    expect(completion.exitCode).toBe(0);
    for (const option of ['--stage', '--base', '--head', '--json']) expect(completion.stdout.split('\n')).toContain(option);
    const help = runCli(['guard', '--help']);
    for (const option of ['--stage <stage>', '--base <ref>', '--head <ref>', '--json']) expect(help.stdout).toContain(option);
    expect(runCli(['completion']).stdout).toContain('lessons --get-yargs-completions');
  });

  it('capture, report and lint (run from their tables without yargs) say what is wrong with a command line in the words the other commands use', () => {
    const hint = (word: string): string => `run \`lessons help ${word}\` for its options and an example\n`;
    const cases: [string[], string][] = [
      [['capture', '--bogus'], '`lessons capture` does not take --bogus'],
      [['report', '--format', 'jsn'], "--format must be one of text, json, markdown, not 'jsn': did you mean `--format json`?"],
      [['report', '--html'], '--html needs a value'],
      [['lint', 'extra'], '`lessons lint` does not take extra'],
      [['capture', 'a.md', 'b.md'], '`lessons capture` does not take b.md'],
    ];
    for (const [args, message] of cases) {
      const result = runCli(args);
      expect({ args, exitCode: result.exitCode, stderr: result.stderr, stdout: result.stdout }).toEqual({ args, exitCode: 2, stderr: `lessons: ${message}\n${hint(args[0]!)}`, stdout: '' });
    }
    // yargs's negation of a boolean option: the last word wins; an option the command lacks stays unknown.
    const root = tempLessonsRepo();
    expect(runCli(['lint', '--json', '--no-json'], { cwd: root }).stdout).toMatch(/^\d+ lessons? checked/m);
    expect(JSON.parse(runCli(['lint', '--no-json', '--json'], { cwd: root }).stdout)).toHaveProperty('errors');
    expect(runCli(['lint', '--no-bogus'], { cwd: root })).toMatchObject({ exitCode: 2, stderr: `lessons: \`lessons lint\` does not take --no-bogus\n${hint('lint')}` });
    const help = runCli(['help', 'capture']);
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toMatch(/^usage: lessons capture \[file\]\n/);
    expect(help.stdout).toContain('\n  [file]                The text to read');
    for (const option of ['--from-error <value>', '--json', '-C <dir>']) expect(help.stdout).toContain(option);
  });

  it('an unknown command exits 2 with a hint and no stack trace', () => {
    const result = runCli(['frobnicate']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe("lessons: unknown command 'frobnicate'\nrun `lessons --help` for the commands\n");
    expect(result.stdout).toBe('');
  });

  it('-C with a missing directory exits 2', () => {
    const result = runCli(['-C', '/nonexistent/dir', 'lint']);
    expect(result).toMatchObject({ exitCode: 2, stdout: '' });
    expect(result.stderr).toBe("lessons: cannot change to '/nonexistent/dir': no such directory\n");
  });

  it('outside a lessons repository exits 2 and says what to do', () => {
    const result = runCli(['lint'], { cwd: tempDir() });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/^lessons: not a lessons repository \(no lessons\/ folder in .+\): run `lessons init` there, or pass -C <dir>\n$/);
  });
});

describe('output into a closed pipe (built binary)', () => {
  it('stops quietly when the reader goes away early', async () => {
    const root = tempDir();
    await generateRepo(root, 1_500, 3);
    const script = `"${process.execPath}" "${BIN}" list | head -c 1 >/dev/null; echo "\${PIPESTATUS[0]}"`;
    const result = spawnSync('bash', ['-c', script], { encoding: 'utf8', cwd: root, env: { ...process.env, NO_COLOR: '1' } });
    expect(result.stderr).toBe('');
    expect(result.stdout.trim()).toBe('0');
  });

  it('gives stderr the same handler when something first writes to it', () => {
    const main = path.join(path.dirname(BIN), 'main.js');
    const script = `const { stopQuietlyOnClosedPipe } = await import(${JSON.stringify(main)}); stopQuietlyOnClosedPipe('list'); process.stdout.write(String(process.stdout.listenerCount('error')) + ' ' + String(process.stderr.listenerCount('error')) + ' ' + String(process.stderr.listenerCount('error')));`;
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('1 1 1');
  });
});
