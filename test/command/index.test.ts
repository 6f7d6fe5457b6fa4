import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkIndex, writeIndex } from '../../src/store/index-write.js';
import { validateAgainst } from '../../src/schema/validate.js';
import { lessonFile, lessonText } from '../helpers/lessons.js';
import { git, initGitRepo, PACKAGE_ROOT, runCli, tempLessonsRepo, writeFiles } from '../helpers/repo.js';

const FILES = {
  ...lessonFile({ id: 'case-b', title: 'B', tags: ['ci'] }),
  ...lessonFile({ id: 'case-a', title: 'A', summary: undefined }),
  'lessons/patterns/pattern-p.md': lessonText({
    id: 'pattern-p',
    title: 'P',
    level: 'pattern',
    source_case_ids: ['case-b', 'case-a'],
    applications: [{ context: 'web', ref: 'PR 1', validated_at: '2026-02-01' }],
  }),
};

function readIndex(root: string): string {
  return fs.readFileSync(path.join(root, 'lessons/index.json'), 'utf8');
}

describe('lessons index', () => {
  it('writes a sorted index, valid against its schema, with provenance both ways', async () => {
    const root = tempLessonsRepo(FILES);
    expect(await writeIndex({ cwd: root })).toEqual({ path: 'lessons/index.json', lessons: 3, written: true });
    const index = JSON.parse(readIndex(root));
    expect(validateAgainst('index', index)).toEqual([]);
    expect(index.lessons.map((entry: { id: string }) => entry.id)).toEqual(['case-a', 'case-b', 'pattern-p']);
    const [a, , p] = index.lessons;
    expect(a).toMatchObject({
      path: 'lessons/cases/case-a.md',
      summary: 'A release went out.',
      checklist: ['Every manifest that carries the version is updated in the same commit.'],
      promoted_into: ['pattern-p'],
    });
    expect(p).toMatchObject({ promoted_from: ['case-a', 'case-b'], promoted_into: [] });
    expect(readIndex(root).endsWith('}\n')).toBe(true);
  });

  it('rebuilds an unchanged tree to identical bytes and leaves the file alone', async () => {
    const root = tempLessonsRepo(FILES);
    await writeIndex({ cwd: root });
    const first = readIndex(root);
    const inode = fs.statSync(path.join(root, 'lessons/index.json')).ino;
    expect(await writeIndex({ cwd: root })).toMatchObject({ written: false });
    expect(readIndex(root)).toBe(first);
    expect(fs.statSync(path.join(root, 'lessons/index.json')).ino).toBe(inode);
  });

  it('gives the same bytes whatever order the files were created in', async () => {
    const one = tempLessonsRepo(FILES);
    const reversed = tempLessonsRepo(Object.fromEntries(Object.entries(FILES).reverse()));
    await writeIndex({ cwd: one });
    await writeIndex({ cwd: reversed });
    expect(readIndex(reversed)).toBe(readIndex(one));
  });

  it('--check passes on a fresh index and names the lessons that differ on a stale one', async () => {
    const root = tempLessonsRepo(FILES);
    await writeIndex({ cwd: root });
    expect(await checkIndex({ cwd: root })).toMatchObject({ fresh: true });
    writeFiles(root, {
      ...lessonFile({ id: 'case-a', title: 'A renamed' }),
      ...lessonFile({ id: 'case-c', title: 'C' }),
    });
    fs.rmSync(path.join(root, 'lessons/cases/case-b.md'));
    writeFiles(root, { 'lessons/patterns/pattern-p.md': lessonText({ id: 'pattern-p', title: 'P', level: 'pattern', source_case_ids: ['case-a', 'case-c'] }) });
    expect(await checkIndex({ cwd: root })).toEqual({
      path: 'lessons/index.json',
      fresh: false,
      missing: false,
      diff: { added: ['case-c'], removed: ['case-b'], changed: ['case-a', 'pattern-p'] },
    });
  });

  it('refuses to index a tree whose lessons cannot be read, and writes nothing', async () => {
    const root = tempLessonsRepo({ ...FILES, 'lessons/cases/case-x.md': '---\nid: [unclosed\n---\n' });
    await expect(writeIndex({ cwd: root })).rejects.toMatchObject({ exitCode: 1, message: expect.stringContaining('lessons/cases/case-x.md: malformed YAML') });
    expect(fs.existsSync(path.join(root, 'lessons/index.json'))).toBe(false);
  });

  it('refuses lessons without a usable id, title, level or status; other wrong values are lint\'s to report', async () => {
    const root = tempLessonsRepo({ ...FILES, 'lessons/cases/case-x.md': lessonText({ id: 'case-x', title: undefined, status: 'done' }) });
    await expect(writeIndex({ cwd: root })).rejects.toMatchObject({
      exitCode: 1,
      message: expect.stringContaining('lessons/cases/case-x.md: status must be one of: candidate, validated, canonical, retired'),
    });
    writeFiles(root, { 'lessons/cases/case-x.md': lessonText({ id: 'case-x', severity: 'urgent' }) });
    await writeIndex({ cwd: root });
    const index = JSON.parse(readIndex(root));
    expect(index.lessons.find((entry: { id: string }) => entry.id === 'case-x').severity).toBe('medium');
    expect(validateAgainst('index', index)).toEqual([]);
  });

  it('the committed index of this repository is fresh', () => {
    const result = runCli(['index', '--check'], { cwd: PACKAGE_ROOT });
    expect(result).toMatchObject({ exitCode: 0, stdout: 'lessons/index.json is up to date\n' });
  });

  it('--check through the binary exits 1 and says to run lessons index', () => {
    const root = tempLessonsRepo(FILES);
    const missing = runCli(['index', '--check'], { cwd: root });
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toBe('lessons/index.json is missing: run `lessons index` and commit it\n  not in the index: case-a, case-b, pattern-p\n');
    expect(runCli(['index'], { cwd: root })).toMatchObject({ exitCode: 0, stdout: 'wrote lessons/index.json (3 lessons)\n' });
    writeFiles(root, lessonFile({ id: 'case-a', title: 'A2' }));
    const stale = runCli(['index', '--check'], { cwd: root });
    expect(stale).toMatchObject({ exitCode: 1, stderr: 'lessons/index.json is stale: run `lessons index` and commit it\n  changed: case-a\n' });
  });

  it('--check and the guard say why an index that lists the same lessons differs: an earlier format, or lines out of their chain', () => {
    const root = initGitRepo(tempLessonsRepo(FILES));
    expect(runCli(['index'], { cwd: root }).exitCode).toBe(0);
    const written = readIndex(root);
    const file = path.join(root, 'lessons/index.json');
    // As lessons wrote it before format 2: no entry names its neighbour.
    fs.writeFileSync(file, written.replace('"version": 2', '"version": 1').replace(/"after":(null|"[a-z-]+"),/g, ''));
    const earlier = runCli(['index', '--check'], { cwd: root });
    expect(earlier.exitCode).toBe(1);
    expect(earlier.stderr).toBe(
      'lessons/index.json is stale: run `lessons index` and commit it\n  index format 1, which earlier versions of lessons wrote\n',
    );
    git(root, 'add', '-A');
    const gate = runCli(['guard', '--stage', 'pre-commit', '--json'], { cwd: root });
    const findings = (JSON.parse(gate.stdout) as { findings: { rule: string; message: string }[] }).findings.filter((finding) => finding.rule === 'index-stale');
    expect(findings.map((finding) => finding.message)).toEqual(['lessons/index.json is stale (index format 1, which earlier versions of lessons wrote): run `lessons index` and `git add lessons/index.json`']);
    // As a merge without the merge driver leaves it: a line twice.
    const lines = written.split('\n');
    const second = lines.findIndex((line) => line.includes('"id":"case-b"'));
    fs.writeFileSync(file, [...lines.slice(0, second + 1), lines[second]!.endsWith(',') ? lines[second]! : `${lines[second]},`, ...lines.slice(second + 1)].join('\n'));
    expect(runCli(['index', '--check'], { cwd: root })).toMatchObject({
      exitCode: 1,
      stderr: 'lessons/index.json is stale: run `lessons index` and commit it\n  lists lessons twice, out of order or after the wrong neighbour, as a merge without the index merge driver leaves it\n',
    });
    expect(runCli(['index'], { cwd: root }).exitCode).toBe(0);
    expect(readIndex(root)).toBe(written);
  });

  it('leaves no temp files behind', async () => {
    const root = tempLessonsRepo(FILES);
    await writeIndex({ cwd: root });
    expect(fs.readdirSync(path.join(root, 'lessons')).sort()).toEqual(['cases', 'index.json', 'patterns', 'principles']);
  });
});
