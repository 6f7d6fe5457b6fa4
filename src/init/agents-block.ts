/**
 * The AGENTS.md block that tells coding agents when to run lessons. The one copy of this
 * text: `lessons init` writes it into a repository's AGENTS.md between the markers.
 */
export const AGENTS_BEGIN = '<!-- lessons:begin -->';
export const AGENTS_END = '<!-- lessons:end -->';

export const AGENTS_BLOCK = `${AGENTS_BEGIN}
## Lessons from past mistakes

This repository records what went wrong before, and how not to repeat it, in \`lessons/\`.
This block is managed by \`lessons init\`; edit outside the markers.

- At the start of every task, run \`lessons preflight "<task>"\` (add \`--path <file>\` for
  the files you expect to touch) and follow the checklist it prints.
- In your first status update, report the lessons preflight selected (their ids), or that
  it selected none.
- Before your final answer, and before every commit and push, run
  \`lessons guard --stage final\`; fix what it reports, or say why it does not apply.
- Before asking a person a question, run \`lessons ask "<question>"\`; ask only what it
  cannot answer, then keep the answer with
  \`lessons ask --record --question "<question>" --answer "<answer>"\`.
- For a new feature, write the spec first: \`lessons spec new "<feature>"\` writes the
  documents of \`references/spec-first-flow.md\`; reviews follow \`references/review-flow.md\`.
- After a mistake worth remembering, record it with \`lessons new "<title>"\`.
${AGENTS_END}
`;

/** The reference documents the block points to: \`lessons init\` copies them into the repository. */
export const BLOCK_REFERENCES: readonly string[] = [...new Set(AGENTS_BLOCK.match(/references\/[\w.-]+\.md/g) ?? [])];

export type BlockAction = 'created' | 'updated' | 'unchanged' | 'differs';

/**
 * AGENTS.md with the managed block in place: appended when missing, replaced only with
 * `force` when someone changed it, and every line outside the markers kept as it was.
 */
export function upsertAgentsBlock(existing: string | undefined, force: boolean): { text: string; action: BlockAction } {
  if (existing === undefined) return { text: `# Agent instructions\n\n${AGENTS_BLOCK}`, action: 'created' };
  const begin = existing.indexOf(AGENTS_BEGIN);
  const end = begin === -1 ? -1 : existing.indexOf(AGENTS_END, begin);
  if (begin === -1 || end === -1) {
    const separator = existing === '' ? '' : existing.endsWith('\n\n') ? '' : existing.endsWith('\n') ? '\n' : '\n\n';
    return { text: `${existing}${separator}${AGENTS_BLOCK}`, action: 'updated' };
  }
  const after = end + AGENTS_END.length;
  const current = `${existing.slice(begin, after)}\n`;
  if (current === AGENTS_BLOCK) return { text: existing, action: 'unchanged' };
  if (!force) return { text: existing, action: 'differs' };
  const rest = existing.slice(after).replace(/^\n/, '');
  return { text: `${existing.slice(0, begin)}${AGENTS_BLOCK}${rest}`, action: 'updated' };
}
