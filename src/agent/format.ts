/** The text an agent sees: compact, one lesson per block, its checklist as boxes. */
import { relatedLine, type RelatedLesson, type SelectedLesson } from '../preflight/report.js';
import { printable } from '../util/printable.js';
import { lessonsCommand } from '../init/install.js';

/** Above this an answer is cut: harnesses cap what they inject, and a wall of text is not read. */
export const MAX_CONTEXT_CHARS = 8000;

/** The most lessons a tool call shows: at most 3, never in the way. */
export const TOOL_CALL_LIMIT = 3;

export function formatLesson(lesson: SelectedLesson, options: { reasons?: boolean } = {}): string {
  const lines = [`- [${lesson.severity}] ${lesson.id}: ${lesson.title} (${lesson.path})`];
  if (options.reasons && lesson.reasons.length > 0) lines.push(`  why: ${lesson.reasons.join('; ')}`);
  for (const item of lesson.checklist) lines.push(`  - [ ] ${item}`);
  return lines.join('\n');
}

/** A heading line, then the lessons, dropping whole lessons from the end past the size cap. */
export function formatLessons(heading: string, lessons: readonly SelectedLesson[], options: { reasons?: boolean; repeated?: ReadonlySet<string> } = {}): string {
  let text = heading;
  let dropped = 0;
  for (const lesson of lessons) {
    const block = options.repeated?.has(lesson.id)
      ? `- [${lesson.severity}] ${lesson.id}: ${lesson.title} (checklist shown earlier in this session)`
      : formatLesson(lesson, options);
    if (text.length + block.length + 1 > MAX_CONTEXT_CHARS) {
      dropped++;
      continue;
    }
    text += `\n${block}`;
  }
  if (dropped > 0) text += `\n(${dropped} more not shown: run \`lessons preflight\` for the full list)`;
  // The harness shows this text as it is: no escape sequences or controls from a lesson.
  return printable(text);
}

/** The related tier as an agent sees it: what to do with the entries, opened with `command` (how the repository runs lessons). */
export function relatedHeading(command = 'lessons'): string {
  return `Related lessons (titles only): open one that fits this task with \`${command} show <id>\` (or the MCP \`show\` tool); ignore the rest.`;
}

/** The related entries under relatedHeading(); '' when there are none. */
export function formatRelated(related: readonly RelatedLesson[], command?: string): string {
  return related.length === 0 ? '' : printable([relatedHeading(command), ...related.map((lesson) => relatedLine(lesson, '- '))].join('\n'));
}

/** Both tiers of an answer: the lessons that apply under `heading` (when any), then the related entries; '' when both are empty. */
export function formatTiers(
  heading: string,
  lessons: readonly SelectedLesson[],
  related: readonly RelatedLesson[],
  options: { reasons?: boolean; repeated?: ReadonlySet<string>; command?: string } = {},
): string {
  return [lessons.length > 0 ? formatLessons(heading, lessons, options) : '', formatRelated(related, options.command)].filter((part) => part !== '').join('\n\n');
}

/** How the agent's own shell runs lessons in this repository, read only when there is something to open: a dev dependency is not on its PATH. */
export function openCommand(root: string, related: readonly RelatedLesson[]): string | undefined {
  return related.length === 0 ? undefined : lessonsCommand(root);
}
