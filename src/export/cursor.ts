/**
 * `--to cursor`: one Cursor project rule per lesson, `.cursor/rules/lessons-<id>.mdc`.
 * Frontmatter (https://cursor.com/docs/context/rules, "Rule anatomy"): `description` (what the
 * agent reads to decide whether the rule applies), `globs` (comma-separated patterns that
 * attach the rule when matching files are in context) and `alwaysApply`. Trigger paths become
 * the globs; lessons that apply everywhere (alwaysApplies) are `alwaysApply: true`.
 */
import type { IndexEntry } from '../index/build.js';
import { CURSOR_RULE_PREFIX, CURSOR_RULES_DIR } from '../io/repo.js';
import { alwaysApplies, Lines, ownedFile, ruleBody, ruleDescription } from './lesson-text.js';
import type { ExportTargetDeclaration, OwnedFiles, Rendered } from './target.js';

const OWNED: OwnedFiles = { dir: CURSOR_RULES_DIR, prefix: CURSOR_RULE_PREFIX, suffix: '.mdc' };

function cursorRule(entry: IndexEntry): Rendered {
  const lines = new Lines().push('---', `description: ${JSON.stringify(ruleDescription(entry))}`);
  if (entry.triggers.paths.length > 0) lines.push(`globs: ${JSON.stringify(entry.triggers.paths.join(','))}`);
  lines.push(`alwaysApply: ${alwaysApplies(entry)}`, '---');
  return ruleBody(lines, entry, 'cursor').at(ownedFile(OWNED, entry));
}

export const CURSOR = {
  name: 'cursor',
  writes: '.cursor/rules/lessons-*.mdc',
  sectionFiles: [],
  owned: OWNED,
  plan: (entries) => ({ sections: [], files: entries.map(cursorRule) }),
} as const satisfies ExportTargetDeclaration<'cursor'>;
