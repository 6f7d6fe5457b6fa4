import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportLessons } from '../../src/export/export.js';
import { lessonFile } from '../helpers/lessons.js';
import { runCli, tempLessonsRepo, writeFiles } from '../helpers/repo.js';

const PRINCIPLE_ID = 'principle-small-steps';

/** `count` checklist items of about 100 bytes, each with a two-byte character (so bytes and characters differ). */
function checklist(count: number, word: string): string {
  const items = Array.from({ length: count }, (_, index) => `- [ ] Step ${index + 1} of the ${word} checklist: run the check, read its output, and fix what it reports (ü).`);
  return `## Situation\n\nIt went wrong.\n\n## Prevention Checklist\n\n${items.join('\n')}\n`;
}

/** A principle and 40 cases of about 1.1 KB each: an AGENTS.md section well over Codex's 32 KiB. */
function bigRepo(): string {
  const files: Record<string, string> = lessonFile({ id: PRINCIPLE_ID, level: 'principle', title: 'Take small steps', severity: 'low', status: 'canonical' }, checklist(3, 'principle'));
  for (let index = 10; index < 50; index++) Object.assign(files, lessonFile({ id: `case-2026-01-${index}-incident`, title: `Incident ${index}` }, checklist(10, `incident ${index}`)));
  return tempLessonsRepo(files);
}

describe('export budgets', () => {
  it('AGENTS.md past 32 KiB: a warning names the lessons Codex would cut (the last ones), principles first so they survive', async () => {
    const root = bigRepo();
    writeFiles(root, { 'AGENTS.md': `# Our notes\n\n${'Notes of our own. '.repeat(100)}\n` });
    const result = await exportLessons({ cwd: root, to: 'agents-md' });
    const text = fs.readFileSync(path.join(root, 'AGENTS.md'), 'utf8');
    const ids = [...text.matchAll(/^`([^`]+)` · /gm)].map((match) => match[1]!);
    expect(ids[0]).toBe(PRINCIPLE_ID);
    expect(ids).toHaveLength(41);
    // The first lesson cut is the one whose heading comes last in the 32,768 bytes Codex reads; it and every one after it are named, none before.
    const seen = [...Buffer.from(text, 'utf8').subarray(0, 32 * 1024).toString('utf8').matchAll(/^`([^`]+)` · /gm)].map((match) => match[1]!);
    const cut = ids.slice(seen.length - 1);
    expect(cut.length).toBeGreaterThan(10);
    // The first ten are named, then how many more: thousands of lessons still make one readable line.
    const named = `${cut.slice(0, 10).join(', ')} and ${cut.length - 10} more`;
    expect(result.warnings).toEqual([
      {
        file: 'AGENTS.md',
        message: `AGENTS.md has ${Buffer.byteLength(text, 'utf8')} bytes, and Codex reads only the first 32768 (project_doc_max_bytes, openai/codex codex-rs/core/src/project_doc.rs): it would cut, wholly or in part: ${named}. Note: the AGENTS.md files from the repository root down share that budget, this one first; raise project_doc_max_bytes in ~/.codex/config.toml, or keep fewer lessons canonical or validated`,
      },
    ]);
    // A warning, not a failure: the command exits 0 and says it on stderr.
    const run = runCli(['export', '--to', 'agents-md', '--check'], { cwd: root });
    expect(run.exitCode).toBe(0);
    expect(run.stderr).toBe(`warning: ${result.warnings[0]!.message}\n`);
  });

  it('a Windsurf rule past 12,000 characters: a warning names the checklist items Windsurf would cut', async () => {
    const id = 'case-2026-02-02-long-checklist';
    const root = tempLessonsRepo(lessonFile({ id, title: 'A lesson with a long checklist' }, checklist(130, 'long')));
    const result = await exportLessons({ cwd: root, to: 'windsurf' });
    const rel = `.windsurf/rules/lessons-${id}.md`;
    const text = fs.readFileSync(path.join(root, rel), 'utf8');
    const items = (text.match(/^- \[ \] /gm) ?? []).length;
    expect(items).toBe(130);
    const firstCut = ([...text].slice(0, 12_000).join('').match(/^- \[ \] /gm) ?? []).length;
    const cut = Array.from({ length: items - firstCut + 1 }, (_, index) => `${id} (checklist item ${firstCut + index} of 130)`);
    const named = cut.length > 10 ? `${cut.slice(0, 10).join(', ')} and ${cut.length - 10} more` : cut.join(', ');
    expect(result.warnings).toEqual([
      { file: rel, message: `${rel} has ${[...text].length} characters, and Windsurf reads only the first 12000 (https://docs.windsurf.com/windsurf/cascade/memories): it would cut, wholly or in part: ${named}` },
    ]);
    // A rule within the limit gives no warning.
    writeFiles(root, lessonFile({ id, title: 'A lesson with a long checklist' }, checklist(20, 'long')));
    expect((await exportLessons({ cwd: root, to: 'windsurf' })).warnings).toEqual([]);
  });

  it('a root AGENTS.override.md, which Codex reads instead of AGENTS.md: a warning says the exported lessons are not read', async () => {
    const root = tempLessonsRepo(lessonFile({ id: 'case-2026-03-03-small', title: 'Small' }));
    expect((await exportLessons({ cwd: root, to: 'agents-md' })).warnings).toEqual([]);
    writeFiles(root, { 'AGENTS.override.md': '# Local notes\n' });
    expect((await exportLessons({ cwd: root, to: 'agents-md' })).warnings).toEqual([
      {
        file: 'AGENTS.override.md',
        message: 'Codex reads AGENTS.override.md instead of AGENTS.md in the same folder (openai/codex codex-rs/core/src/project_doc.rs, candidate_filenames), so it never reads the lessons exported to AGENTS.md: move what AGENTS.override.md holds into AGENTS.md, or remove it',
      },
    ]);
  });
});
