import { describe, expect, it } from 'vitest';
import { CORRECTION_PHRASES, correctionPhrase, recordInstruction } from '../../src/agent/correction.js';
import { EMPTY_RED_GREEN, commandKind, hasErrorOutput, keyErrorLines, onEdit, onFailure, onSuccess, pairLog, plainDraft, readRedGreen } from '../../src/agent/red-green.js';
import { inferProject } from '../../src/policy/projects.js';

describe('commandKind: program and subcommand', () => {
  it.each([
    ['npm test', 'npm test'],
    ['npm run test -- --watch=false', 'npm test'],
    ['npm t', 'npm test'],
    ['npm run build', 'npm build'],
    ['pnpm test', 'pnpm test'],
    ['yarn run lint', 'yarn lint'],
    ['cargo build --release', 'cargo build'],
    ['cargo test -p core', 'cargo test'],
    ['go test ./...', 'go test'],
    ['make check', 'make check'],
    ['pytest tests/test_api.py -k login', 'pytest'],
    ['python -m pytest -x', 'pytest'],
    ['uv run pytest', 'pytest'],
    ['npx vitest run test/unit', 'vitest'],
    ['npx tsc --noEmit', 'tsc'],
    ['CI=1 npm test', 'npm test'],
    ['sudo make install', 'make install'],
    ['cd packages/api && npm test 2>&1 | tail -20', 'npm test'],
    ['npm ci && npm test', 'npm test'],
    ['timeout 60 cargo test', 'cargo test'],
    ['./gradlew build', 'gradle build'],
    ['python manage.py migrate', 'python manage.py'],
    ['/usr/bin/node scripts/check.mjs', 'node check.mjs'],
  ])('%s -> %s', (command, kind) => {
    expect(commandKind(command)).toBe(kind);
  });

  it('a command that only sets the scene or looks around has no kind', () => {
    expect(commandKind('cd src && ls -la')).toBeUndefined();
    expect(commandKind('grep -rn TODO src')).toBeUndefined();
    expect(commandKind('test -f dist/index.js')).toBeUndefined();
    expect(commandKind('npm test 2>&1 | grep FAIL')).toBe('npm test');
    expect(commandKind('')).toBeUndefined();
  });

  it('different subcommands are different kinds; different arguments are not', () => {
    expect(commandKind('npm test')).not.toBe(commandKind('npm run build'));
    expect(commandKind('pytest tests/a.py')).toBe(commandKind('pytest -q'));
  });
});

describe('error lines', () => {
  it('keeps the lines that carry an error, bounded, and the tail when none does', () => {
    const output = ['> app@1.0.0 test', 'RUN v4', ' FAIL  test/a.test.ts > adds', 'AssertionError: expected 3 to be 4', ' Tests  1 failed | 4 passed (5)', 'done'].join('\n');
    expect(keyErrorLines(output)).toEqual(['FAIL test/a.test.ts > adds', 'AssertionError: expected 3 to be 4', 'Tests 1 failed | 4 passed (5)']);
    expect(keyErrorLines('one\ntwo\nthree')).toEqual(['one', 'two', 'three']);
    expect(keyErrorLines(Array.from({ length: 50 }, (_, i) => `error ${i}`).join('\n'))).toHaveLength(8);
    expect(keyErrorLines(`error: ${'x'.repeat(500)}`)[0]).toHaveLength(200);
  });

  it('a passing summary is not an error; a failing one is', () => {
    expect(hasErrorOutput('test result: ok. 12 passed; 0 failed; 0 ignored')).toBe(false);
    expect(hasErrorOutput('Found 0 errors. Watching for file changes.')).toBe(false);
    expect(hasErrorOutput('12 passed in 0.31s')).toBe(false);
    expect(hasErrorOutput('test result: FAILED. 11 passed; 1 failed')).toBe(true);
    expect(hasErrorOutput("error[E0308]: mismatched types")).toBe(true);
    expect(hasErrorOutput('npm ERR! code ELIFECYCLE')).toBe(true);
    expect(hasErrorOutput('Traceback (most recent call last):')).toBe(true);
    // Test runners' failure marks.
    expect(hasErrorOutput('  ✗ renders the header')).toBe(true);
    expect(hasErrorOutput('  ✖ 1 problem')).toBe(true);
    expect(hasErrorOutput('  ✓ renders the header')).toBe(false);
  });
});

describe('the red -> green state', () => {
  const failure = { kind: 'npm test', command: 'npm test', exit: 1, lines: ['FAIL a.test.ts'] };

  it('a failure, edits, then a pass of the same kind make the pair; the files changed in between come with it', () => {
    let state = onFailure(EMPTY_RED_GREEN, failure);
    state = onEdit(state, ['src/a.ts']);
    state = onSuccess(state, 'npm run build', 'npm run build');
    expect(state.pair).toBeNull();
    state = onEdit(state, ['src/a.ts', 'src/b.ts']);
    state = onSuccess(state, 'npm test', 'npm test -- --run');
    expect(state.pair).toEqual({ kind: 'npm test', failed: { command: 'npm test', exit: 1, lines: ['FAIL a.test.ts'] }, passed: 'npm test -- --run', files: ['src/a.ts', 'src/b.ts'] });
    expect(state.open).toEqual([]);
  });

  it('a plain success is nothing; edits without a failure are nothing', () => {
    expect(onSuccess(EMPTY_RED_GREEN, 'npm test', 'npm test')).toBe(EMPTY_RED_GREEN);
    expect(onEdit(EMPTY_RED_GREEN, ['a.ts'])).toBe(EMPTY_RED_GREEN);
  });

  it('one pair per session: later failures and passes change nothing', () => {
    const paired = onSuccess(onFailure(EMPTY_RED_GREEN, failure), 'npm test', 'npm test');
    expect(onSuccess(onFailure(paired, { ...failure, kind: 'cargo test', command: 'cargo test' }), 'cargo test', 'cargo test')).toBe(paired);
  });

  it('a later failure of the same kind replaces the earlier one; the open list is bounded', () => {
    const twice = onFailure(onFailure(EMPTY_RED_GREEN, failure), { ...failure, lines: ['FAIL b.test.ts'] });
    expect(twice.open.map((item) => item.lines)).toEqual([['FAIL b.test.ts']]);
    let many = EMPTY_RED_GREEN;
    for (let i = 0; i < 9; i++) many = onFailure(many, { ...failure, kind: `make t${i}` });
    expect(many.open.map((item) => item.kind)).toEqual(['make t4', 'make t5', 'make t6', 'make t7', 'make t8']);
  });

  it('reads back what it wrote, and drops what is malformed', () => {
    const state = onSuccess(onEdit(onFailure(EMPTY_RED_GREEN, failure), ['a.ts']), 'npm test', 'npm test');
    expect(readRedGreen(JSON.parse(JSON.stringify(state)))).toEqual(state);
    expect(readRedGreen({ open: [{ kind: 1 }], pair: { kind: 'x' }, drafted: 'yes' })).toEqual(EMPTY_RED_GREEN);
    expect(readRedGreen(null)).toEqual(EMPTY_RED_GREEN);
  });

  it('the plain draft keeps the evidence and triggers on the command kind', () => {
    const pair = { kind: 'npm test', failed: { command: 'npm test', exit: 1, lines: ['FAIL a.test.ts', 'AssertionError: expected 3 to be 4'] }, passed: 'npm test', files: ['src/sum.ts'] };
    const draft = plainDraft(pair);
    expect(draft.title).toBe('npm test failed: FAIL a.test.ts');
    expect(draft.triggers).toEqual({ commands: ['npm test*'] });
    expect(draft.tags).toEqual(['red-green', 'npm']);
    expect(draft.body).toContain('AssertionError: expected 3 to be 4');
    expect(draft.body).toContain('Changed `src/sum.ts`; then `npm test` passed.');
    expect(draft.body).toContain('- [ ] Run `npm test` before calling a change done.');
    expect(pairLog(pair)).toBe('$ npm test\nFAIL a.test.ts\nAssertionError: expected 3 to be 4\n(exit code 1)\n\nFiles changed before it passed: src/sum.ts\n\n$ npm test\n(passed)\n');
  });
});

describe('correction phrases', () => {
  it.each([
    ['It broke again', 'again'],
    ['the login page is still broken', 'still broken'],
    ['You did the same thing as yesterday', 'You did the same thing'],
    ['this is a regression', 'regression'],
    ['CI keeps failing on main', 'keeps failing'],
    ["it still doesn\u2019t work", "still doesn't work"],
    ['you forgot the migration', 'you forgot'],
    ['또 안 돼요', '또 안 돼'],
    ['또 안돼', '또 안돼'],
    ['비슷한 실수를 했네', '비슷한 실수'],
    ['왜 반복돼?', '왜 반복돼'],
    ['고쳤는데 깨졌어', '고쳤는데 깨졌'],
  ])('%s', (prompt, phrase) => {
    expect(correctionPhrase(prompt)).toBe(phrase);
  });

  it('only whole words: against, stillborn, regressions-free prose without the phrase', () => {
    expect(correctionPhrase('Check the input against the schema')).toBeUndefined();
    expect(correctionPhrase('a stillborn project, broken build')).toBeUndefined();
    expect(correctionPhrase('Add a login page')).toBeUndefined();
    expect(CORRECTION_PHRASES.length).toBeGreaterThan(10);
  });

  it('the instruction asks for a [LESSON] block and names a matching lesson', () => {
    const text = recordInstruction('again', { id: 'case-x', title: 'Version bump missed the manifest' });
    expect(text).toContain('[LESSON]\ntitle: <what went wrong, in a few words>');
    expect(text).toContain('[/LESSON]');
    expect(text).toContain('It may be the existing lesson case-x ("Version bump missed the manifest")');
    expect(recordInstruction('again', undefined)).not.toContain('existing lesson');
  });
});

describe('projects', () => {
  const projects = { billing: ['services/billing/**'], web: ['apps/web/**', 'packages/ui/**'] };

  it('infers the one project the paths belong to; paths outside every project do not count', () => {
    expect(inferProject(projects, ['services/billing/src/invoice.ts'])).toBe('billing');
    expect(inferProject(projects, ['README.md', 'packages/ui/button.tsx'])).toBe('web');
    expect(inferProject(projects, ['README.md'])).toBeNull();
    expect(inferProject(projects, [])).toBeNull();
    expect(inferProject(projects, ['services/billing/a.ts', 'apps/web/b.ts'])).toBeNull();
    expect(inferProject({}, ['services/billing/a.ts'])).toBeNull();
  });
});
