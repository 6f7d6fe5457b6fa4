import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runGuard, type GuardReport } from '../../src/guard/guard.js';
import { secretFingerprint } from '../../src/secrets/rules.js';
import type { Stage } from '../../src/policy/policy.js';
import { CASE_ID, commitAll, committedLessonsRepo, fakeToken, stageIndex, writeReceipt } from '../helpers/guard.js';
import { lessonFile, lessonText } from '../helpers/lessons.js';
import { git, writeFiles } from '../helpers/repo.js';

const NOW = new Date('2026-11-21T12:00:00Z');

function guard(root: string, stage: Stage, extra: { base?: string } = {}): Promise<GuardReport> {
  return runGuard({ cwd: root, stage, now: NOW, env: {}, ...extra });
}

function gate(report: GuardReport, name: string) {
  return report.findings.filter((finding) => finding.gate === name);
}

function setPolicy(root: string, edit: (policy: Record<string, any>) => void): void {
  const file = path.join(root, 'policy/workflow-policy.json');
  const policy = JSON.parse(fs.readFileSync(file, 'utf8'));
  edit(policy);
  fs.writeFileSync(file, JSON.stringify(policy, null, 2));
}

describe('schema gate', () => {
  it('blocks a staged lesson that breaks the schema, naming file, line and field', async () => {
    const root = await committedLessonsRepo();
    writeFiles(root, lessonFile({ id: 'case-2026-02-02-bad', severity: 'extreme' }));
    await stageIndex(root).catch(() => undefined);
    git(root, 'add', '-A');
    const report = await guard(root, 'pre-commit');
    expect(report.blocked).toBe(true);
    expect(gate(report, 'schema')).toEqual([
      expect.objectContaining({ level: 'block', rule: 'schema', file: 'lessons/cases/case-2026-02-02-bad.md', line: 6, message: expect.stringContaining('severity must be one of') }),
    ]);
  });

  it('passes a valid staged lesson', async () => {
    const root = await committedLessonsRepo();
    writeFiles(root, lessonFile({ id: 'case-2026-02-02-good' }));
    await stageIndex(root);
    const report = await guard(root, 'pre-commit');
    expect(gate(report, 'schema')).toEqual([]);
    expect(report.blocked).toBe(false);
  });

  it('checks what is staged, not what is on disk', async () => {
    const root = await committedLessonsRepo();
    writeFiles(root, lessonFile({ id: 'case-2026-02-02-good' }));
    await stageIndex(root);
    writeFiles(root, { 'lessons/cases/case-2026-02-02-good.md': 'not a lesson' });
    expect((await guard(root, 'pre-commit')).blocked).toBe(false);
    expect((await guard(root, 'final')).findings.some((finding) => finding.gate === 'schema')).toBe(true);
  });
});

describe('index-fresh gate', () => {
  it('blocks when the staged index misses a staged lesson, and says how to fix it', async () => {
    const root = await committedLessonsRepo();
    writeFiles(root, lessonFile({ id: 'case-2026-02-02-new' }));
    git(root, 'add', '-A');
    const report = await guard(root, 'pre-commit');
    expect(gate(report, 'index-fresh')).toEqual([
      {
        gate: 'index-fresh',
        level: 'block',
        rule: 'index-stale',
        severity: 'error',
        file: 'lessons/index.json',
        message: 'lessons/index.json is stale (not in the index: case-2026-02-02-new): run `lessons index` and `git add lessons/index.json`',
      },
    ]);
  });

  it('passes when the index is rebuilt and staged', async () => {
    const root = await committedLessonsRepo();
    writeFiles(root, lessonFile({ id: 'case-2026-02-02-new' }));
    await stageIndex(root);
    expect(gate(await guard(root, 'pre-commit'), 'index-fresh')).toEqual([]);
  });
});

describe('preflight-evidence gate', () => {
  it('warns without a receipt, passes with a fresh one, warns on a stale one', async () => {
    const root = await committedLessonsRepo();
    expect(gate(await guard(root, 'pre-commit'), 'preflight-evidence')).toEqual([
      expect.objectContaining({ level: 'warn', rule: 'preflight-receipt', message: 'no preflight receipt: run `lessons preflight "<task>"` at the start of the task' }),
    ]);
    writeReceipt(root, [CASE_ID], new Date(NOW.getTime() - 10 * 60_000));
    expect(gate(await guard(root, 'pre-commit'), 'preflight-evidence')).toEqual([]);
    writeReceipt(root, [CASE_ID], new Date(NOW.getTime() - 300 * 60_000));
    expect(gate(await guard(root, 'pre-commit'), 'preflight-evidence')[0]?.message).toBe(
      'the last preflight ran 300 minutes ago (policy limit 240): run `lessons preflight "<task>"` at the start of the task again',
    );
  });

  it('blocks a receipt-less commit when the policy says block', async () => {
    const root = await committedLessonsRepo();
    setPolicy(root, (policy) => (policy.gates['preflight-evidence']['pre-commit'] = 'block'));
    expect((await guard(root, 'pre-commit')).blocked).toBe(true);
  });

  it('in ci, names each non-merge commit without a Lessons-Preflight trailer', async () => {
    const root = await committedLessonsRepo();
    const base = git(root, 'rev-parse', 'HEAD').trim();
    writeFiles(root, { 'a.txt': 'a' });
    commitAll(root, 'with evidence', `Lessons-Preflight: ${CASE_ID}`);
    writeFiles(root, { 'b.txt': 'b' });
    const bare = commitAll(root, 'without evidence');
    const findings = gate(await guard(root, 'ci', { base }), 'preflight-evidence');
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ commit: bare, level: 'warn', rule: 'preflight-trailer' });
    expect(findings[0]!.message).toContain('(without evidence) has no `Lessons-Preflight:` trailer');
  });
});

describe('incident-lesson gate', () => {
  async function incidentRepo(): Promise<{ root: string; base: string }> {
    const root = await committedLessonsRepo();
    return { root, base: git(root, 'rev-parse', 'HEAD').trim() };
  }

  it('blocks a hotfix: commit or an Incident: trailer in ci that leaves no lesson', async () => {
    const { root, base } = await incidentRepo();
    writeFiles(root, { 'src.txt': 'fixed' });
    commitAll(root, 'hotfix: the release script skipped a manifest', 'Lessons-Preflight: none');
    writeFiles(root, { 'src.txt': 'fixed again' });
    commitAll(root, 'chore: pin the manifest', 'Incident: INC-9\nLessons-Preflight: none');
    const findings = gate(await guard(root, 'ci', { base }), 'incident-lesson');
    expect(findings).toHaveLength(2);
    expect(findings.map((finding) => [finding.level, finding.rule])).toEqual([['block', 'incident-lesson'], ['block', 'incident-lesson']]);
    expect(findings[0]!.message).toContain('resolves an incident but leaves no lesson');
    expect(findings[0]!.message).toContain('`Lesson-Skip: <reason>`');
  });

  it('only warns in ci about a conventional fix: commit that leaves no lesson (the default policy)', async () => {
    const { root, base } = await incidentRepo();
    writeFiles(root, { 'src.txt': 'fixed' });
    commitAll(root, 'fix(ui): align the button', 'Lessons-Preflight: none');
    const report = await guard(root, 'ci', { base });
    const findings = gate(report, 'incident-lesson');
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ level: 'warn', rule: 'incident-lesson' });
    expect(findings[0]!.message).toContain('is a fix but leaves no lesson');
  });

  it('passes with a case added in the range, a Lesson: trailer naming one, or a Lesson-Skip: reason', async () => {
    const { root, base } = await incidentRepo();
    writeFiles(root, { 'src.txt': 'fixed' });
    commitAll(root, 'hotfix: one', `Lesson: ${CASE_ID}`);
    writeFiles(root, { 'src.txt': 'fixed again' });
    commitAll(root, 'chore: two', 'Incident: INC-7', 'Lesson-Skip: a typo, nothing to learn');
    expect(gate(await guard(root, 'ci', { base }), 'incident-lesson')).toEqual([]);
    const { root: other, base: otherBase } = await incidentRepo();
    writeFiles(other, lessonFile({ id: 'case-2026-03-03-manifest' }));
    await stageIndex(other);
    commitAll(other, 'fix(release): bump every manifest');
    expect(gate(await guard(other, 'ci', { base: otherBase }), 'incident-lesson')).toEqual([]);
  });

  it('blocks a Lesson: trailer that names no lesson', async () => {
    const { root, base } = await incidentRepo();
    writeFiles(root, { 'src.txt': 'fixed' });
    commitAll(root, 'fix: one', 'Lesson: case-that-does-not-exist');
    const findings = gate(await guard(root, 'ci', { base }), 'incident-lesson');
    expect(findings.map((finding) => finding.rule)).toEqual(['incident-lesson-unknown']);
  });

  it('is not checked at pre-commit, where no commit message exists yet', async () => {
    const root = await committedLessonsRepo();
    setPolicy(root, (policy) => (policy.gates['incident-lesson']['pre-commit'] = 'block'));
    expect(gate(await guard(root, 'pre-commit'), 'incident-lesson')).toEqual([]);
  });
});

describe('promotion gate', () => {
  it('blocks deleting a case that a pattern still names, and passes retiring it instead', async () => {
    const root = await committedLessonsRepo({
      ...lessonFile({ id: 'case-2026-01-02-second' }),
      ...lessonFile({ id: 'pattern-manifests', level: 'pattern', source_case_ids: [CASE_ID, 'case-2026-01-02-second'] }),
    });
    fs.rmSync(path.join(root, 'lessons/cases/case-2026-01-02-second.md'));
    await stageIndex(root);
    const findings = gate(await guard(root, 'pre-commit'), 'promotion');
    expect(findings).toEqual([
      expect.objectContaining({ level: 'block', rule: 'deleted-referenced', file: 'lessons/cases/case-2026-01-02-second.md' }),
    ]);
    git(root, 'reset', '-q', '--hard');
    expect(gate(await guard(root, 'pre-commit'), 'promotion')).toEqual([]);
  });
});

describe('secrets gate', () => {
  it('blocks a lesson that leaks a token, without printing the token', async () => {
    const root = await committedLessonsRepo();
    const token = fakeToken('github');
    writeFiles(root, lessonFile({ id: 'case-2026-04-04-leak' }, `## Fix\n\nUsed ${token} to test.\n\n## Prevention Checklist\n\n- [ ] Never paste tokens.\n`));
    await stageIndex(root);
    const report = await guard(root, 'pre-commit');
    const findings = gate(report, 'secrets');
    // The lesson and the index it is copied into (its summary) both hold the token.
    expect(findings).toEqual([
      expect.objectContaining({ level: 'block', rule: 'github-token', file: 'lessons/cases/case-2026-04-04-leak.md', line: 14 }),
      expect.objectContaining({ level: 'block', rule: 'github-token', file: 'lessons/index.json' }),
    ]);
    expect(JSON.stringify(report)).not.toContain(token);
    expect(findings[0]!.message).toContain(secretFingerprint('github-token', token));
  });

  it('passes a match whose fingerprint the policy allowlists', async () => {
    const root = await committedLessonsRepo();
    const token = fakeToken('aws');
    setPolicy(root, (policy) => (policy.secrets.allowlist = [secretFingerprint('aws-access-key-id', token)]));
    writeFiles(root, lessonFile({ id: 'case-2026-04-04-doc' }, `## Fix\n\nThe documented example key ${token}.\n\n## Prevention Checklist\n\n- [ ] x\n`));
    await stageIndex(root);
    expect(gate(await guard(root, 'pre-commit'), 'secrets')).toEqual([]);
  });

  it('scans every changed file when the scope is the change, including odd file names', async () => {
    const root = await committedLessonsRepo();
    writeFiles(root, { 'config/prod settings é.env': `SLACK=${fakeToken('slack')}\n` });
    git(root, 'add', '-A');
    expect(gate(await guard(root, 'pre-commit'), 'secrets')).toEqual([]);
    setPolicy(root, (policy) => (policy.secrets.scope = 'change'));
    expect(gate(await guard(root, 'pre-commit'), 'secrets')).toEqual([
      expect.objectContaining({ rule: 'slack-token', file: 'config/prod settings é.env', line: 1, level: 'block' }),
    ]);
  });
});

describe('quality gate', () => {
  it('runs the policy commands without a shell and blocks on a failure', async () => {
    const root = await committedLessonsRepo();
    setPolicy(root, (policy) => {
      policy.gates.quality['pre-commit'] = 'block';
      policy.quality.commands = [
        { name: 'ok', run: [process.execPath, '-e', 'process.exit(0)'] },
        { name: 'test', run: [process.execPath, '-e', 'console.log("2 failed"); process.exit(3)'] },
      ];
    });
    const findings = gate(await guard(root, 'pre-commit'), 'quality');
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ level: 'block', rule: 'quality-test' });
    expect(findings[0]!.message).toContain('failed: exit code 3\n2 failed');
  });

  it('names a program that is not installed', async () => {
    const root = await committedLessonsRepo();
    setPolicy(root, (policy) => {
      policy.gates.quality['pre-commit'] = 'warn';
      policy.quality.commands = [{ name: 'lint', run: ['no-such-program-for-lessons'] }];
    });
    expect(gate(await guard(root, 'pre-commit'), 'quality')[0]).toMatchObject({
      level: 'warn',
      message: expect.stringContaining('`no-such-program-for-lessons` was not found'),
    });
  });
});

describe('levels and audit', () => {
  it('final reports blocking problems as warnings and never blocks', async () => {
    const root = await committedLessonsRepo();
    writeFiles(root, { 'lessons/cases/broken.md': lessonText({ id: 'broken', status: 'nonsense' }) });
    const report = await guard(root, 'final');
    expect(report.blocked).toBe(false);
    expect(report.findings.length).toBeGreaterThan(0);
    expect(report.findings.every((finding) => finding.level === 'warn')).toBe(true);
  });

  it('drops gates that are off for the stage', async () => {
    const root = await committedLessonsRepo();
    setPolicy(root, (policy) => (policy.gates['preflight-evidence']['pre-commit'] = 'off'));
    expect((await guard(root, 'pre-commit')).findings).toEqual([]);
  });

  it('gives the same findings from its content cache, and ignores a broken cache', async () => {
    const root = await committedLessonsRepo();
    writeFiles(root, lessonFile({ id: 'case-2026-02-02-bad', severity: 'extreme' }, `## Fix\n\n${fakeToken('github')}\n`));
    git(root, 'add', '-A');
    const first = await guard(root, 'pre-commit');
    expect(first.findings.map((finding) => finding.gate)).toEqual(expect.arrayContaining(['schema', 'secrets', 'index-fresh']));
    expect(fs.existsSync(path.join(root, '.lessons/cache/files/meta.json'))).toBe(true);
    expect(await guard(root, 'pre-commit')).toEqual(first);
    fs.writeFileSync(path.join(root, '.lessons/cache/files/meta.json'), '{ broken');
    expect(await guard(root, 'pre-commit')).toEqual(first);
    writeFiles(root, lessonFile({ id: 'case-2026-02-02-bad' }));
    await stageIndex(root);
    expect((await guard(root, 'pre-commit')).blocked).toBe(false);
  });

  it('checks a lesson whose frontmatter JSON cannot hold (kept out of the cache, never dropped)', async () => {
    const root = await committedLessonsRepo();
    writeFiles(root, { 'lessons/cases/case-2026-02-03-inf.md': lessonText({ id: 'case-2026-02-03-inf' }).replace('severity: medium', 'severity: medium\nconfidence: .inf') });
    git(root, 'add', '-A');
    for (let run = 0; run < 2; run++) {
      const findings = gate(await guard(root, 'pre-commit'), 'schema');
      expect(findings.map((finding) => [finding.file, finding.message])).toEqual([['lessons/cases/case-2026-02-03-inf.md', 'confidence must be integer']]);
    }
  });

  it('writes each run to .lessons/guard/<stage>-last.json under a git-ignored folder', async () => {
    const root = await committedLessonsRepo();
    const report = await guard(root, 'pre-commit');
    const saved = JSON.parse(fs.readFileSync(path.join(root, '.lessons/guard/pre-commit-last.json'), 'utf8'));
    expect(saved).toEqual({ ...report, created_at: NOW.toISOString() });
    expect(fs.readFileSync(path.join(root, '.lessons/.gitignore'), 'utf8')).toBe('*\n');
  });
});
