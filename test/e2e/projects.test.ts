import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lessonFile } from '../helpers/lessons.js';
import { runCli, tempLessonsRepo } from '../helpers/repo.js';

const CHECKLIST = '## Situation\n\nA migration locked a table.\n\n## Prevention Checklist\n\n- [ ] Run the migration against a copy first.\n';

/** Three lessons about the same mistake: a case for billing, one for web, a pattern for every project. */
function repo(projects: unknown = { billing: ['services/billing/**'], web: ['apps/web/**', 'packages/ui/**'] }): string {
  const root = tempLessonsRepo({
    ...lessonFile({ id: 'case-2026-04-01-billing-migration-lock', title: 'Database migration locked the invoices table', tags: ['database', 'migration'], project: 'billing' }, CHECKLIST),
    ...lessonFile({ id: 'case-2026-04-02-web-migration-lock', title: 'Database migration locked the sessions table', tags: ['database', 'migration'], project: 'web' }, CHECKLIST),
    ...lessonFile({ id: 'pattern-migration-lock', level: 'pattern', title: 'Database migration locked a busy table', tags: ['database', 'migration'], source_case_ids: [] }, CHECKLIST),
  });
  const file = path.join(root, 'policy/workflow-policy.json');
  fs.writeFileSync(file, JSON.stringify({ ...JSON.parse(fs.readFileSync(file, 'utf8')), projects }, null, 2));
  expect(runCli(['index'], { cwd: root }).exitCode).toBe(0);
  return root;
}

function preflight(root: string, ...args: string[]): { project: string | null; ids: string[] } {
  const result = runCli(['preflight', 'add a database migration that locks a table', '--json', ...args], { cwd: root });
  expect(result.exitCode, result.stderr).toBe(0);
  const report = JSON.parse(result.stdout) as { project: string | null; selected: { id: string }[] };
  return { project: report.project, ids: report.selected.map((lesson) => lesson.id).sort() };
}

describe('project scoping (policy projects)', () => {
  it('infers the project from --path and shows no lesson of another project', () => {
    const root = repo();
    expect(preflight(root, '--path', 'services/billing/migrations/0042.sql')).toEqual({ project: 'billing', ids: ['case-2026-04-01-billing-migration-lock', 'pattern-migration-lock'] });
    expect(preflight(root, '--path', 'packages/ui/button.tsx', '--path', 'README.md')).toEqual({ project: 'web', ids: ['case-2026-04-02-web-migration-lock', 'pattern-migration-lock'] });
  });

  it('--project names it outright; without a path in a project nothing is inferred and every lesson can be shown', () => {
    const root = repo();
    expect(preflight(root, '--project', 'web', '--path', 'services/billing/a.sql').ids).toEqual(['case-2026-04-02-web-migration-lock', 'pattern-migration-lock']);
    expect(preflight(root)).toEqual({ project: null, ids: ['case-2026-04-01-billing-migration-lock', 'case-2026-04-02-web-migration-lock', 'pattern-migration-lock'] });
    expect(preflight(root, '--path', 'docs/runbook.md').project).toBeNull();
    // Paths in two projects: no single project, nothing filtered.
    expect(preflight(root, '--path', 'services/billing/a.sql', '--path', 'apps/web/b.ts').project).toBeNull();
  });

  it('a malformed projects entry is a policy error that names it (lint, exit 2); preflight still answers', () => {
    const root = repo({ billing: 'services/billing/**' });
    const lint = runCli(['lint'], { cwd: root });
    expect(lint.exitCode).toBe(2);
    expect(lint.stderr).toContain('policy/workflow-policy.json is invalid');
    expect(lint.stderr).toContain('projects.billing: must be array');
    expect(lint.stderr).not.toMatch(/\n\s+at /);
    expect(preflight(root, '--path', 'services/billing/a.sql').project).toBeNull();
  });
});
