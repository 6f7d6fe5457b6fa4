/**
 * The ci stage's export check: a repository that exports its lessons (every target of
 * src/export/targets.ts it keeps: CLAUDE.md, AGENTS.md, GEMINI.md or copilot-instructions.md
 * sections, Cursor, Claude Code, Windsurf or Copilot rule files) must commit them current, or
 * agents read yesterday's lessons. Stale exports are findings of the index-fresh gate: like the
 * index, they are generated from the lessons and must be regenerated with them. An export a
 * tool would cut (past Codex's 32 KiB, a Windsurf rule's 12,000 characters) is a warning.
 */
import type { GateLevel } from '../policy/policy.js';
import { applyLevel, type GuardFinding } from './finding.js';

export async function staleExportFindings(root: string, level: GateLevel): Promise<GuardFinding[]> {
  if (level === 'off') return [];
  const { checkExports, isStale } = await import('../export/export.js');
  const findings: GuardFinding[] = [];
  for (const { target, result } of await checkExports(root)) {
    for (const warning of result.warnings) {
      const finding = applyLevel('index-fresh', 'ci', level, { rule: 'export-budget', severity: 'warning', file: warning.file, message: warning.message });
      if (finding) findings.push(finding);
    }
    if (!isStale(result)) continue;
    const files = [...result.written, ...result.removed];
    const finding = applyLevel('index-fresh', 'ci', level, {
      rule: 'export-stale',
      severity: 'error',
      file: files[0]!,
      message: `the ${target} export is behind the lessons (${files.join(', ')}): run \`lessons export --to ${target}\` and commit the result`,
    });
    if (finding) findings.push(finding);
  }
  return findings;
}
