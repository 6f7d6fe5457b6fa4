/**
 * `--to gemini`: a marked section of the root GEMINI.md, the context file Gemini CLI loads from
 * the working directory and its parents up to the git root and sends with every prompt
 * (google-gemini/gemini-cli docs/cli/gemini-md.md). No size limit is documented. Gemini CLI
 * reads `@path` as an import (docs/core/memport.md), so lesson text has none (withoutImports).
 */
import { withoutImports } from './lesson-text.js';
import { sectionLines } from './render.js';
import type { ExportTargetDeclaration } from './target.js';

export const GEMINI = {
  name: 'gemini',
  writes: 'a GEMINI.md section',
  sectionFiles: ['GEMINI.md'],
  plan: (entries, bin) => ({ sections: [sectionLines(entries, 'gemini', { bin, clean: withoutImports }).at('GEMINI.md')], files: [] }),
} as const satisfies ExportTargetDeclaration<'gemini'>;
