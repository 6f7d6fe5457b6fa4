import { describe, expect, it } from 'vitest';
import { writeIndex } from '../../src/store/index-write.js';
import { preflight, type PreflightOptions } from '../../src/preflight/preflight.js';
import { estimateTokens } from '../../src/preflight/report.js';
import { readReceiptText } from '../../src/io/receipt-file.js';
import { receiptFromText } from '../../src/preflight/receipt.js';
import { lessonFile } from '../helpers/lessons.js';
import { NOW } from '../helpers/preflight.js';
import { tempLessonsRepo } from '../helpers/repo.js';
import { showLesson } from '../../src/store/query.js';

function options(cwd: string, task: string, extra: Partial<PreflightOptions> = {}): PreflightOptions {
  return { cwd, now: NOW, task, paths: [], tool: null, command: null, project: null, format: 'text', ...extra };
}

async function indexedRepo(files: Record<string, string>): Promise<string> {
  const root = tempLessonsRepo(files);
  await writeIndex({ cwd: root });
  return root;
}

/** A small team's lessons: each about one tool and what it broke. */
const SMALL = {
  ...lessonFile({ id: 'case-terraform-state-lock', title: 'Terraform state lock left behind by a killed apply', tags: ['infra'] }, 'A CI job was cancelled mid-apply; the lock stayed and blocked every plan.\n'),
  ...lessonFile({ id: 'case-helm-rollback', title: 'Helm rollback restored an old secret', tags: ['deploy'] }, 'The terraform-managed secret was overwritten by the chart rollback.\n'),
  ...lessonFile({ id: 'case-flyway-checksum', title: 'Flyway checksum mismatch after editing an applied migration', tags: ['database'] }, 'Someone edited V12 after it ran; terraform outputs fed the connection string.\n'),
  ...lessonFile({ id: 'case-renovate-major', title: 'Renovate merged a major version on a Friday', tags: ['dependencies'] }, 'Automerge was on for majors; terraform providers were pinned loosely too.\n'),
  ...lessonFile({ id: 'case-cron-timezone', title: 'Cron job ran in UTC instead of local time', tags: ['scheduling'] }),
};

/** A task two lessons answer: with --limit 1 the second is listed as related. */
const TWO = 'the terraform state lock stayed after a killed apply, and a helm rollback restored an old secret';

describe('preflight in two tiers', () => {
  it('lists lessons below the apply tier as one-line related entries: id, title, why, and how to open one; never a checklist', async () => {
    const root = await indexedRepo(SMALL);
    const result = await preflight(options(root, 'terraform apply'));
    expect(result.report.selected).toEqual([]);
    expect(result.report.related.map((lesson) => lesson.id)[0]).toBe('case-terraform-state-lock');
    for (const lesson of result.report.related) expect(Object.keys(lesson)).toEqual(['id', 'handle', 'title', 'level', 'path', 'score', 'reasons']);
    const lines = result.output.trimEnd().split('\n');
    expect(lines[0]).toBe('No lesson applies; related (lessons show <id>):');
    expect(lines[1]).toBe('  - case-terraform-state: Terraform state lock left behind by a killed apply');
    for (const line of lines.slice(1)) expect(line.length).toBeLessThanOrEqual(80);
    expect(result.output).not.toContain('- [ ]');
    expect(estimateTokens(result.output)).toBeLessThanOrEqual(80);
    const receipt = receiptFromText(readReceiptText(root));
    expect(receipt).toMatchObject({ selected: [], related: result.report.related.map((lesson) => lesson.id) });
  });

  it('is never silent on a two-word task whose words the best lesson’s title carries, in a small repository', async () => {
    // "terraform" is in most of these lessons and "upgrade" in none: little evidence, yet the first lesson's title names the tool.
    const root = await indexedRepo(SMALL);
    const result = await preflight(options(root, 'terraform upgrade', { format: 'json' }));
    const shown = [...result.report.selected, ...result.report.related].map((lesson) => lesson.id);
    expect(shown[0]).toBe('case-terraform-state-lock');
  });

  it('applies in full what is confident, with the related entries under their own heading, in text and markdown', async () => {
    const root = await indexedRepo(SMALL);
    const text = await preflight(options(root, TWO, { limit: 1 }));
    expect(text.report.selected.map((lesson) => lesson.id)).toEqual(['case-helm-rollback']);
    expect(text.output).toContain('     summary: The terraform-managed secret was overwritten');
    const related = text.report.related.map((lesson) => lesson.handle);
    expect(related.length).toBeGreaterThan(0);
    expect(text.output).toContain(`\nRelated (\`lessons show <id>\` opens one that fits; ignore the rest):\n  - ${related[0]}: `);
    const markdown = await preflight(options(root, TWO, { format: 'markdown', limit: 1 }));
    expect(markdown.output).toContain(`**Related** (\`lessons show <id>\` opens one that fits; ignore the rest):\n\n- \`${related[0]}\`: `);
  });

  it('fits --budget by leaving out the related entries before any lesson that applies', async () => {
    const root = await indexedRepo(SMALL);
    const task = TWO;
    const full = await preflight(options(root, task, { limit: 1 }));
    expect(full.report.selected.length).toBe(1);
    const related = full.report.related.length;
    expect(related).toBeGreaterThan(0);
    const tight = await preflight(options(root, task, { limit: 1, budget: estimateTokens(full.output) - 1 }));
    expect(tight.report.selected.map((l) => l.id)).toEqual(full.report.selected.map((l) => l.id));
    expect(tight.report.related.length).toBe(related - 1);
    expect(tight.report.omitted_by_budget).toBe(1);
  });
});

describe('related entries name a lesson by a short handle that opens it', () => {
  /** Ids in the dated style many teams use: the date and the first words already tell them apart. */
  const DATED = {
    ...lessonFile({ id: 'case-2026-09-30-rider-phone-numbers-in-request-logs', title: 'Rider phone numbers in the request logs', tags: ['logging'] }),
    ...lessonFile({ id: 'case-2026-09-30-rider-app-crash-on-empty-trip-list', title: 'Rider app crashed on an empty trip list after the logging change', tags: ['mobile'] }),
    ...lessonFile({ id: 'case-2026-10-02-payout-consumer-paid-twice', title: 'Payout consumer paid drivers twice after a rebalance', tags: ['kafka'] }),
  };

  it('prints the handle, keeps more of the title, and lessons show opens the lesson by it', async () => {
    const root = await indexedRepo(DATED);
    const result = await preflight(options(root, 'rider'));
    expect(result.report.selected).toEqual([]);
    const entries = result.report.related;
    expect(entries.map((lesson) => lesson.handle)).toContain('case-2026-09-30-rider-phone');
    for (const lesson of entries) {
      expect(lesson.id.startsWith(lesson.handle)).toBe(true);
      expect(result.output).toContain(`  - ${lesson.handle}: `);
      expect((await showLesson({ cwd: root, id: lesson.handle })).entry.id).toBe(lesson.id);
    }
    for (const line of result.output.trimEnd().split("\n").slice(1)) expect(line.length).toBeLessThanOrEqual(80);
    expect(result.output).toContain('  - case-2026-09-30-rider-phone: Rider phone numbers in the request logs (rider)\n');
  });
});
