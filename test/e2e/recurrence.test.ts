import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lessonFile } from '../helpers/lessons.js';
import { git, initGitRepo, runCli, tempLessonsRepo, writeFiles } from '../helpers/repo.js';

const BODY = '## Situation\n\nThe release bumped package.json only.\n\n## Prevention Checklist\n\n- [ ] Every manifest that carries the version is updated in the same commit.\n';
const block = (title: string): string => `[LESSON]\ntitle: ${title}\nThe release bumped package.json only.\n[/LESSON]\n`;
const frontmatter = (root: string, id: string): string => fs.readFileSync(path.join(root, `lessons/cases/${id}.md`), 'utf8').split('\n---\n')[0]!;

describe('repeats get louder (built CLI)', () => {
  it('capture raises the severity one step when occurrences pass policy.capture.escalate_after, and says so', () => {
    const root = tempLessonsRepo({
      ...lessonFile({ id: 'case-manifest', title: 'Version bump missed the manifest', occurrences: 3 }, BODY),
      ...lessonFile({ id: 'case-critical', title: 'Secret pasted into a fixture', severity: 'critical', occurrences: 3 }, BODY),
    });
    const first = runCli(['capture', '-'], { cwd: root, input: block('Version bump missed the manifest') });
    expect(first.exitCode).toBe(0);
    expect(first.stdout).toBe(
      'bumped lessons/cases/case-manifest.md: near-duplicate of case-manifest (similarity 1.00); occurrences +1; severity medium -> high: it recurred 4 times, past policy.capture.escalate_after (3)\n',
    );
    expect(frontmatter(root, 'case-manifest')).toContain('severity: high\n');
    expect(frontmatter(root, 'case-manifest')).toContain('occurrences: 4\n');
    // Once past the threshold it does not keep climbing with every capture.
    const second = runCli(['capture', '-'], { cwd: root, input: block('Version bump missed the manifest') });
    expect(second.stdout).toBe('bumped lessons/cases/case-manifest.md: near-duplicate of case-manifest (similarity 1.00); occurrences +1\n');
    expect(frontmatter(root, 'case-manifest')).toContain('severity: high\n');
    // Never past critical.
    const critical = runCli(['capture', '-'], { cwd: root, input: block('Secret pasted into a fixture') });
    expect(critical.stdout).toBe('bumped lessons/cases/case-critical.md: near-duplicate of case-critical (similarity 1.00); occurrences +1\n');
    expect(frontmatter(root, 'case-critical')).toContain('severity: critical\n');
  });

  it('the threshold comes from the policy', () => {
    const root = tempLessonsRepo(lessonFile({ id: 'case-manifest', title: 'Version bump missed the manifest' }, BODY));
    const file = path.join(root, 'policy/workflow-policy.json');
    const policy = JSON.parse(fs.readFileSync(file, 'utf8')) as { capture: Record<string, unknown> };
    policy.capture.escalate_after = 1;
    fs.writeFileSync(file, JSON.stringify(policy, null, 2));
    const result = runCli(['capture', '-', '--json'], { cwd: root, input: block('Version bump missed the manifest') });
    expect(JSON.parse(result.stdout).outcomes[0]).toMatchObject({ action: 'bumped', occurrences: 2, escalated: { from: 'medium', to: 'high', after: 1 } });
  });

  it('report lists lessons captured again after a trailer or a hook showed them', () => {
    const root = initGitRepo(
      tempLessonsRepo({
        ...lessonFile({ id: 'case-manifest', title: 'Version bump missed the manifest' }, BODY),
        ...lessonFile({ id: 'case-cron', title: 'Cron job skipped a run at the DST change' }, '## Situation\n\nThe scheduler used local time.\n\n## Prevention Checklist\n\n- [ ] Schedule jobs in UTC.\n'),
        ...lessonFile({ id: 'case-old', title: 'Queue redelivery charged twice', occurrences: 5, last_seen: '2026-01-01' }),
      }),
    );
    git(root, 'add', '-A');
    git(root, 'commit', '-qm', 'release 1.2.0', '-m', 'Lessons-Preflight: case-manifest, case-old');
    writeFiles(root, { '.lessons/sessions/session-1.json': JSON.stringify({ session_id: 'session-1', shown: ['case-cron'], pending: [], captured: [] }) });
    const notWorking = (report: { efficacy: { lessons: { id: string; working: boolean }[] } }): string[] => report.efficacy.lessons.filter((lesson) => !lesson.working).map((lesson) => lesson.id);
    expect(notWorking(JSON.parse(runCli(['report', '--json'], { cwd: root }).stdout))).toEqual([]);

    runCli(['capture', '-'], { cwd: root, input: block('Version bump missed the manifest') + '[LESSON]\ntitle: Cron job skipped a run at the DST change\n[/LESSON]\n' });
    // case-old was shown, but its last occurrence is older than that: it has not recurred since.
    expect(notWorking(JSON.parse(runCli(['report', '--json'], { cwd: root }).stdout))).toEqual(['case-cron', 'case-manifest']);
    const text = runCli(['report'], { cwd: root, env: { NO_COLOR: '1' } }).stdout;
    expect(text).toContain('2 not working (recurred afterwards)');
    expect(text).toContain(`  case-cron  `);
  });
});

describe('duplicates are caught where they are made (built CLI)', () => {
  const existing = {
    ...lessonFile({ id: 'case-tag-early', title: 'Release tagged before the version bump was merged' }, BODY),
    ...lessonFile({ id: 'case-cron', title: 'Cron job skipped a run at the DST change' }),
  };

  it('lessons new refuses a paraphrase of an existing lesson, names it, and writes it with --force', () => {
    const root = tempLessonsRepo(existing);
    const refused = runCli(['new', 'Shipped the tag before merging the version bump'], { cwd: root });
    // The figure comes from preflight's vocabulary and weights; the wording around it is fixed.
    expect({ ...refused, stderr: refused.stderr.replace(/similarity \d\.\d\d/, 'similarity N') }).toEqual({
      stdout: '',
      stderr:
        'lessons: "Shipped the tag before merging the version bump" reads like an existing lesson:\n' +
        '  case-tag-early: Release tagged before the version bump was merged (similarity N)\n' +
        'add what you learned to it (`lessons show case-tag-early`), or pass --force to write a new lesson anyway; nothing was written\n',
      exitCode: 1,
    });
    expect(fs.readdirSync(path.join(root, 'lessons/cases')).sort()).toEqual(['case-cron.md', 'case-tag-early.md']);
    const forced = runCli(['new', 'Shipped the tag before merging the version bump', '--force'], { cwd: root });
    expect(forced.exitCode).toBe(0);
    expect(forced.stdout).toMatch(/^lessons\/cases\/case-\d{4}-\d\d-\d\d-shipped-the-tag-before-merging\.md\n$/);
    // An unrelated title goes through.
    expect(runCli(['new', 'Webhook retries charged a card twice'], { cwd: root }).exitCode).toBe(0);
  });

  it('lessons new catches a paraphrase in other words through the thesaurus, not only shared words', () => {
    const root = tempLessonsRepo(lessonFile({ id: 'case-upload', title: 'Big upload stopped the worker' }));
    // Word for word the titles share "upload" and "worker" of four words each (0.50, under the
    // policy's 0.55); "large"/"big" and "halted"/"stopped" meet only through the thesaurus.
    const refused = runCli(['new', 'Large upload halted the worker'], { cwd: root });
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain('  case-upload: Big upload stopped the worker (similarity');
    expect(fs.readdirSync(path.join(root, 'lessons/cases'))).toEqual(['case-upload.md']);
  });

  it('report lists clusters of near-duplicates of one level, judged in preflight\'s text model', () => {
    const root = tempLessonsRepo({
      ...existing,
      ...lessonFile(
        { id: 'case-tag-before-merge', title: 'Release tagged before the version bump was merged to main' },
        BODY,
      ),
    });
    const report = JSON.parse(runCli(['report', '--json'], { cwd: root }).stdout) as { duplicates: { ids: string[]; similarity: number }[] };
    expect(report.duplicates.map((cluster) => cluster.ids)).toEqual([['case-tag-before-merge', 'case-tag-early']]);
    expect(report.duplicates[0]!.similarity).toBeGreaterThanOrEqual(0.8);
    expect(runCli(['report'], { cwd: root, env: { NO_COLOR: '1' } }).stdout).toContain('near-duplicate clusters: 1\n  case-tag-before-merge, case-tag-early');
  });
});
