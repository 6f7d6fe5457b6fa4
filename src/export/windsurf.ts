/**
 * `--to windsurf`: one Windsurf (Cascade) workspace rule per lesson,
 * `.windsurf/rules/lessons-<id>.md` (https://docs.windsurf.com/windsurf/cascade/memories,
 * "Rules"): frontmatter `trigger` is `always_on`, `manual`, `model_decision` (the rule is
 * applied when Cascade judges its `description` relevant) or `glob` (applied to files matching
 * `globs`, comma-separated). Lessons that apply everywhere are `always_on`, lessons with trigger
 * paths `glob`, the others `model_decision`. A rule file is read up to 12,000 characters and
 * cut past them (the same page; its earlier revisions said 6,000).
 */
import type { IndexEntry } from '../index/build.js';
import { alwaysApplies, Lines, ownedFile, ruleBody, ruleDescription } from './lesson-text.js';
import type { ExportTargetDeclaration, OwnedFiles, ReadLimit, Rendered } from './target.js';

const OWNED: OwnedFiles = { dir: '.windsurf/rules', prefix: 'lessons-', suffix: '.md' };

const RULE_FILE: ReadLimit = { reader: 'Windsurf', max: 12_000, unit: 'characters', source: 'https://docs.windsurf.com/windsurf/cascade/memories' };

function windsurfRule(entry: IndexEntry): Rendered {
  const lines = new Lines().push('---');
  if (alwaysApplies(entry)) lines.push('trigger: always_on');
  else if (entry.triggers.paths.length > 0) lines.push('trigger: glob', `globs: ${JSON.stringify(entry.triggers.paths.join(','))}`);
  else lines.push('trigger: model_decision');
  lines.push(`description: ${JSON.stringify(ruleDescription(entry))}`, '---');
  return ruleBody(lines, entry, 'windsurf').at(ownedFile(OWNED, entry), RULE_FILE);
}

export const WINDSURF = {
  name: 'windsurf',
  writes: '.windsurf/rules/lessons-*.md',
  sectionFiles: [],
  owned: OWNED,
  plan: (entries) => ({ sections: [], files: entries.map(windsurfRule) }),
} as const satisfies ExportTargetDeclaration<'windsurf'>;
