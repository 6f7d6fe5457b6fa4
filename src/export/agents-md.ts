/**
 * `--to agents-md`: a marked section of the root AGENTS.md. Codex reads the AGENTS.md files
 * from the git root down to the working directory, concatenated in that order, and stops after
 * `project_doc_max_bytes` (32 KiB by default), cutting silently: openai/codex
 * codex-rs/core/src/project_doc.rs (`read_project_docs`, `discover_project_doc_paths`) and
 * codex-rs/core/src/config/mod.rs (`PROJECT_DOC_MAX_BYTES = 32 * 1024`, "silently truncated"). The root file comes first,
 * so whatever of it lies past 32 KiB is never read. In each folder Codex takes the first of
 * AGENTS.override.md and AGENTS.md it finds (`candidate_filenames`), so a root
 * AGENTS.override.md hides the section.
 */
import { sectionLines } from './render.js';
import type { ExportTargetDeclaration, ReadLimit, Shadow } from './target.js';

const CODEX_PROJECT_DOC: ReadLimit = {
  reader: 'Codex',
  max: 32 * 1024,
  unit: 'bytes',
  source: 'project_doc_max_bytes, openai/codex codex-rs/core/src/project_doc.rs',
  note: 'the AGENTS.md files from the repository root down share that budget, this one first; raise project_doc_max_bytes in ~/.codex/config.toml, or keep fewer lessons canonical or validated',
};

const OVERRIDE: Shadow = { file: 'AGENTS.override.md', instead: 'AGENTS.md', reader: 'Codex', source: 'openai/codex codex-rs/core/src/project_doc.rs, candidate_filenames' };

export const AGENTS_MD = {
  name: 'agents-md',
  writes: 'an AGENTS.md section',
  sectionFiles: ['AGENTS.md'],
  shadowedBy: [OVERRIDE],
  plan: (entries, bin) => ({ sections: [sectionLines(entries, 'agents-md', { bin }).at('AGENTS.md', CODEX_PROJECT_DOC)], files: [] }),
} as const satisfies ExportTargetDeclaration<'agents-md'>;
