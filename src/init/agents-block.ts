/**
 * The AGENTS.md block that tells coding agents when to run lessons. The one copy of this
 * text: `lessons init` writes it into a repository's AGENTS.md between the markers, with the
 * command that runs lessons there (`npx --no-install lessons` for a dev dependency, whose
 * binary is not on PATH; `lessons` for a global install).
 */
import { PROJECT_BIN } from './install.js';

export const AGENTS_BEGIN = '<!-- lessons:begin -->';
export const AGENTS_END = '<!-- lessons:end -->';

export function agentsBlock(bin: string): string {
  return `${AGENTS_BEGIN}
## Lessons from past mistakes

This repository records what went wrong before, and how not to repeat it, in \`lessons/\`.
This block is managed by \`${bin} init\`; edit outside the markers.

- At the start of every task, run \`${bin} preflight "<task>"\` (add \`--path <file>\` for
  the files you expect to touch) and follow the checklist it prints.
- In your first status update, report the lessons preflight selected (their ids), or that
  it selected none.
- Before your final answer, and before every commit and push, run
  \`${bin} guard --stage final\`; fix what it reports, or say why it does not apply.
- Before asking a person a question, run \`${bin} ask "<question>"\`; ask only what it
  cannot answer, then keep the answer with
  \`${bin} ask --record --question "<question>" --answer "<answer>"\`.
- For a new feature, write the spec first: \`${bin} spec new "<feature>"\` writes the
  documents of \`references/spec-first-flow.md\`; reviews follow \`references/review-flow.md\`.
- After a mistake worth remembering, record it with \`${bin} new "<title>"\`.
${AGENTS_END}
`;
}

/** The block for a global install; the forms a block init wrote may take. */
export const AGENTS_BLOCK = agentsBlock('lessons');
const GENERATED_BLOCKS = [AGENTS_BLOCK, agentsBlock(PROJECT_BIN)];

/** The reference documents the block points to: \`lessons init\` copies them into the repository. */
export const BLOCK_REFERENCES: readonly string[] = [...new Set(AGENTS_BLOCK.match(/references\/[\w.-]+\.md/g) ?? [])];

export type BlockAction = 'created' | 'updated' | 'unchanged' | 'differs';

/**
 * AGENTS.md with the managed block (`block`) in place: appended when missing, replaced when init
 * wrote it for another command or, with `force`, when someone changed it, and every line outside
 * the markers kept as it was.
 */
export function upsertAgentsBlock(existing: string | undefined, force: boolean, block: string = AGENTS_BLOCK): { text: string; action: BlockAction } {
  if (existing === undefined) return { text: `# Agent instructions\n\n${block}`, action: 'created' };
  const begin = existing.indexOf(AGENTS_BEGIN);
  const end = begin === -1 ? -1 : existing.indexOf(AGENTS_END, begin);
  if (begin === -1 || end === -1) {
    const separator = existing === '' ? '' : existing.endsWith('\n\n') ? '' : existing.endsWith('\n') ? '\n' : '\n\n';
    return { text: `${existing}${separator}${block}`, action: 'updated' };
  }
  const after = end + AGENTS_END.length;
  const current = `${existing.slice(begin, after)}\n`;
  if (current === block) return { text: existing, action: 'unchanged' };
  if (!force && !GENERATED_BLOCKS.includes(current)) return { text: existing, action: 'differs' };
  const rest = existing.slice(after).replace(/^\n/, '');
  return { text: `${existing.slice(0, begin)}${block}${rest}`, action: 'updated' };
}
