/**
 * The secrets gate over what a push brings and what lessons/ holds (issue #38): a token added
 * and removed again within the pushed range, and the files under lessons/ that are not lessons.
 */
import { describe, expect, it } from 'vitest';
import { commitAll, committedLessonsRepo, fakeToken, runLessons, stageIndex } from '../helpers/guard.js';
import { lessonFile, lessonText } from '../helpers/lessons.js';
import { git, writeFiles } from '../helpers/repo.js';

const ID = 'case-2026-02-02-range';

describe('the secrets gate over a pushed range', () => {
  it('blocks a token an earlier commit added and a later one removed (ci and pre-push), at the commit and line that added it', async () => {
    const root = await committedLessonsRepo();
    const before = git(root, 'rev-parse', 'HEAD').trim();
    const token = fakeToken('github');
    writeFiles(root, lessonFile({ id: ID }, `## Situation\n\nThe deploy used ${token} by mistake.\n\n## Prevention Checklist\n\n- [ ] x\n`));
    await stageIndex(root);
    const added = commitAll(root, 'add a lesson with a token', 'Lessons-Preflight: none');
    writeFiles(root, lessonFile({ id: ID }, '## Situation\n\nThe deploy used a token by mistake.\n\n## Prevention Checklist\n\n- [ ] x\n'));
    await stageIndex(root);
    commitAll(root, 'remove the token', 'Lessons-Preflight: none');
    const ci = runLessons(['guard', '--stage', 'ci', '--base', before, '--json'], { cwd: root });
    expect(ci.exitCode).toBe(1);
    const findings = (JSON.parse(ci.stdout) as { findings: { gate: string; file: string; line: number; message: string }[] }).findings.filter((finding) => finding.gate === 'secrets');
    // Each secret once, at the first file of the first commit that added it.
    expect(findings.map(({ file }) => file)).toEqual(['lessons/cases/case-2026-02-02-range.md']);
    const lesson = findings.find((finding) => finding.file.endsWith('.md'))!;
    expect(lesson.line).toBe(git(root, 'show', `${added}:lessons/cases/${ID}.md`).split('\n').findIndex((line) => line.includes(token)) + 1);
    expect(lesson.message).toContain(`added in commit ${added.slice(0, 12)}`);
    expect(ci.stdout).not.toContain(token);
    const prePush = runLessons(['guard', '--stage', 'pre-push', '--base', before, '--head', 'HEAD'], { cwd: root });
    expect(prePush.stderr).toBe('');
    expect(prePush.exitCode).toBe(1);
    expect(prePush.stdout).toContain('[secrets]');
  });

  it('names a file with spaces and non-ASCII characters under lessons/ that a commit of the range added a token to, then deleted', async () => {
    const root = await committedLessonsRepo();
    const before = git(root, 'rev-parse', 'HEAD').trim();
    writeFiles(root, { 'lessons/notes é 1.txt': `first\n${fakeToken('slack')}\n` });
    commitAll(root, 'notes', 'Lessons-Preflight: none');
    git(root, 'rm', '-q', 'lessons/notes é 1.txt');
    commitAll(root, 'drop the notes', 'Lessons-Preflight: none');
    const ci = runLessons(['guard', '--stage', 'ci', '--base', before, '--json'], { cwd: root });
    const secrets = (JSON.parse(ci.stdout) as { findings: { gate: string; file: string; line: number; rule: string }[] }).findings.filter((finding) => finding.gate === 'secrets');
    expect(secrets.map(({ rule, file, line }) => ({ rule, file, line }))).toEqual([{ rule: 'slack-token', file: 'lessons/notes é 1.txt', line: 2 }]);
    expect(ci.exitCode).toBe(1);
  });

  it('passes a range whose commits added no secret, and reports a token still in the head once', async () => {
    const root = await committedLessonsRepo();
    const before = git(root, 'rev-parse', 'HEAD').trim();
    writeFiles(root, lessonFile({ id: ID }));
    await stageIndex(root);
    commitAll(root, 'a clean lesson', 'Lessons-Preflight: none');
    const clean = runLessons(['guard', '--stage', 'ci', '--base', before, '--json'], { cwd: root });
    expect((JSON.parse(clean.stdout) as { findings: { gate: string }[] }).findings.filter((finding) => finding.gate === 'secrets')).toEqual([]);
    writeFiles(root, { [`lessons/cases/${ID}.md`]: lessonText({ id: ID, title: 'Leak' }, `## Situation\n\nKey ${fakeToken('aws')}\n\n## Prevention Checklist\n\n- [ ] x\n`) });
    await stageIndex(root);
    commitAll(root, 'leak', 'Lessons-Preflight: none');
    const leaked = JSON.parse(runLessons(['guard', '--stage', 'ci', '--base', before, '--json'], { cwd: root }).stdout) as { findings: { gate: string; file: string; message: string }[] };
    const secrets = leaked.findings.filter((finding) => finding.gate === 'secrets');
    expect(secrets.map(({ file }) => file).sort()).toEqual(['lessons/cases/case-2026-02-02-range.md', 'lessons/index.json']);
    expect(secrets.every((finding) => !finding.message.includes('added in commit'))).toBe(true);
  });
});

describe('the secrets gate over every file under lessons/', () => {
  const OTHERS = ['lessons/notes.txt', 'lessons/cases/case-x.md.bak', 'lessons/cases/extra.yaml', 'lessons/cases/sub/deep.md', 'lessons/cases/case-y.MD', 'lessons/README.md', 'lessons/evals.json'];

  it.each(OTHERS)('blocks a token in %s with the default scope (pre-commit)', async (file) => {
    const root = await committedLessonsRepo();
    writeFiles(root, { [file]: `notes\n\nkey: ${fakeToken('github')}\n` });
    git(root, 'add', '-A');
    const result = runLessons(['guard', '--stage', 'pre-commit', '--json'], { cwd: root });
    const secrets = (JSON.parse(result.stdout) as { findings: { gate: string; file: string; line: number }[] }).findings.filter((finding) => finding.gate === 'secrets');
    expect(secrets).toEqual([expect.objectContaining({ file, line: 3 })]);
    expect(result.exitCode).toBe(1);
  });

  it('blocks a markdown-escaped token and a base64 one in a lesson, naming how it was hidden', async () => {
    const root = await committedLessonsRepo();
    const token = fakeToken('github');
    const escaped = token.replace('_', '\\_');
    const encoded = Buffer.from(token).toString('base64');
    writeFiles(root, lessonFile({ id: ID }, `## Situation\n\nIt was ${escaped}.\n\nAnd \`echo ${encoded} | base64 -d\`.\n\n## Prevention Checklist\n\n- [ ] x\n`));
    await stageIndex(root);
    const result = runLessons(['guard', '--stage', 'pre-commit'], { cwd: root });
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toMatch(new RegExp(`lessons/cases/${ID}\\.md:\\d+: block \\[secrets\\] looks like a github-token credential \\(ghp_… \\(40 characters, obfuscated\\)\\)`));
    expect(result.stdout).toMatch(new RegExp(`lessons/cases/${ID}\\.md:\\d+: block \\[secrets\\] looks like a github-token credential \\(ghp_… \\(40 characters, base64-encoded\\)\\)`));
  });
});
