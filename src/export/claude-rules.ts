/**
 * `--to claude-rules`: one Claude Code rule per lesson, `.claude/rules/lessons-<id>.md`
 * (https://code.claude.com/docs/en/memory#path-specific-rules): a rule whose YAML frontmatter
 * has `paths` (a list of globs) loads when Claude works with matching files; one without loads
 * at every start, like CLAUDE.md. Trigger paths become `paths`; lessons that apply everywhere
 * (alwaysApplies, or no trigger paths) have no frontmatter. No size limit is documented.
 */
import type { IndexEntry } from '../index/build.js';
import { alwaysApplies, Lines, ownedFile, ruleBody, withoutImports } from './lesson-text.js';
import type { ExportTargetDeclaration, OwnedFiles, Rendered } from './target.js';

const OWNED: OwnedFiles = { dir: '.claude/rules', prefix: 'lessons-', suffix: '.md' };

function claudeRule(entry: IndexEntry): Rendered {
  const lines = new Lines();
  if (entry.triggers.paths.length > 0 && !alwaysApplies(entry)) lines.push('---', 'paths:', ...entry.triggers.paths.map((glob) => `  - ${JSON.stringify(glob)}`), '---');
  return ruleBody(lines, entry, 'claude-rules', withoutImports).at(ownedFile(OWNED, entry));
}

export const CLAUDE_RULES = {
  name: 'claude-rules',
  writes: '.claude/rules/lessons-*.md',
  sectionFiles: [],
  owned: OWNED,
  plan: (entries) => ({ sections: [], files: entries.map(claudeRule) }),
} as const satisfies ExportTargetDeclaration<'claude-rules'>;
