import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runGuard, type GuardReport } from '../../src/guard/guard.js';
import { scanIndexText } from '../../src/secrets/index-scan.js';
import { compileSecretRules, type CompiledRule } from '../../src/secrets/rules.js';
import { storeDrafts } from '../../src/capture/store.js';
import { writeIndex } from '../../src/store/index-write.js';
import { openLessonCache } from '../../src/store/worktree.js';
import { DEFAULT_POLICY } from '../../src/policy/policy.js';
import { CASE_ID, committedLessonsRepo, fakeToken, stageIndex } from '../helpers/guard.js';
import { lessonFile, lessonText } from '../helpers/lessons.js';
import { git, writeFiles } from '../helpers/repo.js';

const NOW = new Date('2026-11-21T12:00:00Z');

async function preCommit(root: string): Promise<GuardReport> {
  return runGuard({ cwd: root, stage: 'pre-commit', now: NOW, env: {} });
}

const brief = (report: GuardReport, gate: string) => report.findings.filter((finding) => finding.gate === gate).map(({ rule, file, line }) => ({ rule, file, line }));

/** `text` with every character after the first two as a YAML double-quoted `\uXXXX` escape, or `\xXX` for the first. */
function yamlEscaped(text: string, form: 'u' | 'x'): string {
  const escape = (char: string) => (form === 'u' ? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}` : `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`);
  return form === 'u' ? `${text.slice(0, 2)}${escape(text[2]!)}${text.slice(3)}` : `${escape(text[0]!)}${text.slice(1)}`;
}

describe('the secrets gate cannot be stepped around', () => {
  it('scans a lesson with a NUL byte, and the schema gate refuses the byte', async () => {
    const root = await committedLessonsRepo();
    const token = fakeToken('github');
    const text = `${lessonText({ id: 'case-b' })}\nKey: ${token}\n\0\n`;
    writeFiles(root, { 'lessons/cases/case-b.md': text });
    git(root, 'add', '-A');
    const report = await preCommit(root);
    const line = text.slice(0, text.indexOf(token)).split('\n').length;
    expect(brief(report, 'secrets')).toContainEqual({ rule: 'github-token', file: 'lessons/cases/case-b.md', line });
    expect(report.findings).toContainEqual(expect.objectContaining({ gate: 'schema', level: 'block', file: 'lessons/cases/case-b.md', message: expect.stringContaining('NUL byte') }));
  });

  it('scans a lesson over 1 MiB, and the schema gate refuses its size', async () => {
    const root = await committedLessonsRepo();
    const token = fakeToken('aws');
    writeFiles(root, { 'lessons/cases/case-b.md': `${lessonText({ id: 'case-b' })}\n${'padding line\n'.repeat(90_000)}Key: ${token}\n` });
    git(root, 'add', '-A');
    const report = await preCommit(root);
    expect(report.blocked).toBe(true);
    expect(brief(report, 'secrets')).toEqual([expect.objectContaining({ rule: 'aws-access-key-id', file: 'lessons/cases/case-b.md' })]);
    expect(report.findings).toContainEqual(expect.objectContaining({ gate: 'schema', file: 'lessons/cases/case-b.md', message: expect.stringContaining('over the 1 MiB limit') }));
  });

  it('decodes YAML escapes: a token spelled with \\u or \\x escapes is found at its field', async () => {
    for (const [kind, form, rule] of [['github', 'u', 'github-token'], ['aws', 'x', 'aws-access-key-id']] as const) {
      const root = await committedLessonsRepo();
      const hidden = yamlEscaped(fakeToken(kind), form);
      expect(hidden).not.toContain(fakeToken(kind));
      writeFiles(root, { 'lessons/cases/case-b.md': lessonText({ id: 'case-b', title: 'Token in a summary', summary: undefined }).replace('level:', `summary: "Use ${hidden} here"\nlevel:`) });
      await stageIndex(root);
      const report = await preCommit(root);
      const secrets = brief(report, 'secrets');
      expect(secrets).toContainEqual({ rule, file: 'lessons/cases/case-b.md', line: 4 });
      // The decoded token lands in the index, which is scanned too.
      expect(secrets).toContainEqual(expect.objectContaining({ rule, file: 'lessons/index.json' }));
    }
  });

  it('scans the generated files a lesson is copied into, JSON escapes decoded', async () => {
    const root = await committedLessonsRepo();
    const token = fakeToken('github');
    writeFiles(root, {
      'CLAUDE.md': `# Notes\n\nA token: ${token}\n`,
      [`.cursor/rules/lessons-${CASE_ID}.mdc`]: `---\ndescription: x\n---\n${fakeToken('aws')}\n`,
    });
    git(root, 'add', '-A');
    const index = git(root, 'show', 'HEAD:lessons/index.json').replace(/"summary":\s*"/, (found) => `${found}${yamlEscaped(token, 'u')} `);
    const tokenLine = index.split('\n').findIndex((line) => line.includes(yamlEscaped(token, 'u'))) + 1;
    expect(tokenLine).toBeGreaterThan(0);
    writeFiles(root, { 'lessons/index.json': index });
    git(root, 'add', '-A');
    const secrets = brief(await preCommit(root), 'secrets');
    expect(secrets).toEqual([
      { rule: 'aws-access-key-id', file: `.cursor/rules/lessons-${CASE_ID}.mdc`, line: 4 },
      { rule: 'github-token', file: 'CLAUDE.md', line: 3 },
      { rule: 'github-token', file: 'lessons/index.json', line: tokenLine },
    ]);
  });

  it('scans every file an export target copies lessons into: GEMINI.md, copilot-instructions.md and each target’s rule files', async () => {
    const root = await committedLessonsRepo();
    writeFiles(root, {
      'GEMINI.md': `# Notes\n\n${fakeToken('github')}\n`,
      '.github/copilot-instructions.md': `${fakeToken('aws')}\n`,
      [`.github/instructions/lessons-${CASE_ID}.instructions.md`]: `---\napplyTo: "**"\n---\n${fakeToken('github')}\n`,
      [`.claude/rules/lessons-${CASE_ID}.md`]: `${fakeToken('aws')}\n`,
      [`.windsurf/rules/lessons-${CASE_ID}.md`]: `---\ntrigger: always_on\n---\n${fakeToken('aws')}\n`,
      // Not a lesson's rule file: a team's own rule is theirs to scan (scope \`change\`).
      '.windsurf/rules/team-style.md': `${fakeToken('aws')}\n`,
    });
    git(root, 'add', '-A');
    expect(brief(await preCommit(root), 'secrets')).toEqual([
      { rule: 'aws-access-key-id', file: '.claude/rules/lessons-' + CASE_ID + '.md', line: 1 },
      { rule: 'aws-access-key-id', file: '.github/copilot-instructions.md', line: 1 },
      { rule: 'github-token', file: '.github/instructions/lessons-' + CASE_ID + '.instructions.md', line: 4 },
      { rule: 'aws-access-key-id', file: '.windsurf/rules/lessons-' + CASE_ID + '.md', line: 4 },
      { rule: 'github-token', file: 'GEMINI.md', line: 3 },
    ]);
  });
});

describe('YAML bounds on the commit path', () => {
  it('finds an index `lessons index` updated already scanned (the scan carried over the lines it kept), with the matches a cold scan gives', async () => {
    const root = await committedLessonsRepo({ ...lessonFile({ id: 'case-b' }), ...lessonFile({ id: 'case-c', title: `Leaked ${fakeToken('aws')}` }) });
    // The guard scans the committed index once.
    git(root, 'add', '-A');
    await preCommit(root);
    // A retitled lesson, and a new one after the last (whose line gains its comma, and is scanned again).
    writeFiles(root, { 'lessons/cases/case-b.md': lessonText({ id: 'case-b', title: `Token ${fakeToken('github')} in the title` }), ...lessonFile({ id: 'case-z', title: 'Last' }) });
    await writeIndex({ cwd: root });
    const blob = git(root, 'hash-object', 'lessons/index.json').trim();
    const kept = openLessonCache(root).get('lessons/index.json', blob)?.secrets;
    const rules = compileSecretRules(DEFAULT_POLICY.secrets) as CompiledRule[];
    const scanned = scanIndexText(fs.readFileSync(path.join(root, 'lessons/index.json'), 'utf8'), rules);
    expect(kept?.matches).toEqual(scanned.matches.map(({ file: _file, ...match }) => match));
    expect(kept?.index).toEqual(scanned.scan);
    git(root, 'add', '-A');
    const warm = brief(await preCommit(root), 'secrets');
    expect(warm.filter((match) => match.file === 'lessons/index.json').map((match) => match.rule).sort()).toEqual(['aws-access-key-id', 'github-token']);
    fs.rmSync(path.join(root, '.lessons/cache'), { recursive: true });
    expect(brief(await preCommit(root), 'secrets')).toEqual(warm);
  });

  it('finds an index capture updated (a recurrence bumped) already scanned, with the matches a cold scan gives', async () => {
    const title = 'Deploy cache went stale after the manifest changed';
    const root = await committedLessonsRepo({ ...lessonFile({ id: 'case-b', title }), ...lessonFile({ id: 'case-c', title: `Leaked ${fakeToken('aws')}` }) });
    git(root, 'add', '-A');
    await preCommit(root);
    await writeIndex({ cwd: root });
    const before = git(root, 'hash-object', 'lessons/index.json').trim();
    const outcomes = await storeDrafts({ cwd: root, drafts: [{ title, tags: [], body: '' }], now: NOW });
    expect(outcomes.map((outcome) => [outcome.action, outcome.id])).toEqual([['bumped', 'case-b']]);
    const blob = git(root, 'hash-object', 'lessons/index.json').trim();
    expect(blob).not.toBe(before);
    const kept = openLessonCache(root).get('lessons/index.json', blob)?.secrets;
    const scanned = scanIndexText(fs.readFileSync(path.join(root, 'lessons/index.json'), 'utf8'), compileSecretRules(DEFAULT_POLICY.secrets) as CompiledRule[]);
    expect(kept?.matches).toEqual(scanned.matches.map(({ file: _file, ...match }) => match));
    expect(kept?.index).toEqual(scanned.scan);
  });

  it('an alias bomb is refused by the schema gate in well under a second of work', async () => {
    const root = await committedLessonsRepo();
    const lines = ['x0: &a0 [1, 1, 1, 1, 1, 1, 1, 1, 1]'];
    for (let i = 1; i <= 9; i++) lines.push(`x${i}: &a${i} [${Array(9).fill(`*a${i - 1}`).join(', ')}]`);
    writeFiles(root, { 'lessons/cases/case-b.md': lessonText({ id: 'case-b' }).replace('level:', `${lines.join('\n')}\nlevel:`) });
    git(root, 'add', '-A');
    const started = Date.now();
    const report = await preCommit(root);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(report.findings).toContainEqual(expect.objectContaining({ gate: 'schema', level: 'block', file: 'lessons/cases/case-b.md', message: expect.stringContaining('YAML aliases') }));
  });
});
