/**
 * The export targets, listed once: `export --to`, the guard's ci stage and `lessons doctor`
 * read this list. Adding one is a file beside cursor.ts with its declaration, and a line here.
 */
import { AGENTS_MD } from './agents-md.js';
import { CLAUDE } from './claude.js';
import { CLAUDE_RULES } from './claude-rules.js';
import { COPILOT } from './copilot.js';
import { CURSOR } from './cursor.js';
import { GEMINI } from './gemini.js';
import type { GeneratedFiles } from '../secrets/scan.js';
import type { ExportTargetDeclaration } from './target.js';
import { WINDSURF } from './windsurf.js';

export const EXPORT_TARGET_DECLARATIONS = [CURSOR, CLAUDE, AGENTS_MD, COPILOT, CLAUDE_RULES, WINDSURF, GEMINI] as const satisfies readonly ExportTargetDeclaration[];
export type ExportTarget = (typeof EXPORT_TARGET_DECLARATIONS)[number]['name'];
export const EXPORT_TARGETS: readonly ExportTarget[] = EXPORT_TARGET_DECLARATIONS.map((target) => target.name);

export function exportTargetNamed(name: ExportTarget): ExportTargetDeclaration<ExportTarget> {
  return EXPORT_TARGET_DECLARATIONS.find((target) => target.name === name)!;
}

/**
 * What the targets copy lesson text into, for the secrets gate: the files whose marked section
 * a target keeps (AGENTS.md, which `lessons init` also writes, among them), and the folders of
 * rule files targets own whole.
 */
export const GENERATED: GeneratedFiles = {
  files: [...new Set(EXPORT_TARGET_DECLARATIONS.flatMap((target) => target.sectionFiles))],
  rules: EXPORT_TARGET_DECLARATIONS.flatMap((target) => ('owned' in target && target.owned !== undefined ? [target.owned] : [])),
};
