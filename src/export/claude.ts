/**
 * `--to claude`: a marked section of CLAUDE.md, which Claude Code loads at every start
 * (https://code.claude.com/docs/en/memory). No documented size limit cuts it; `@path` would be
 * read as an import, so lesson text has none (withoutImports).
 */
import { withoutImports } from './lesson-text.js';
import { sectionLines } from './render.js';
import type { ExportTargetDeclaration } from './target.js';

export const CLAUDE = {
  name: 'claude',
  writes: 'a CLAUDE.md section',
  sectionFiles: ['CLAUDE.md'],
  plan: (entries, bin) => ({ sections: [sectionLines(entries, 'claude', { bin, clean: withoutImports }).at('CLAUDE.md')], files: [] }),
} as const satisfies ExportTargetDeclaration<'claude'>;
