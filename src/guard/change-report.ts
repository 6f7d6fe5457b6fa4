import type { ChangeLessons } from '../preflight/change.js';
import { NO_LESSONS_MARKER, PR_SECTION_MARKER } from '../render/github.js';

/**
 * The section "Lessons for this change", as the ci guard prints it (text), puts it in the job
 * summary and writes it as a PR comment (markdown). Nothing in it depends on the run (no sha,
 * no score, no time) and the lessons come in id order, so the comment a later push rewrites
 * changes only where the lessons did.
 */

export const CHANGE_HEADING = 'Lessons for this change';


const NONE = "No lesson's triggers match this change's paths or commands, and preflight selects none for its commit subjects.";

/** Inline code whatever the text holds (a glob's `**` is not bold, a subject's backticks stay text): CommonMark code spans. */
function code(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((run) => run[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

function count(n: number, word: string): string {
  return `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;
}

/** What the section did not read or show: a huge range read in part, lessons past the policy's limit. */
function notes(change: ChangeLessons): string[] {
  const lines: string[] = [];
  const { paths, subjects } = change;
  if (paths.read < paths.total) lines.push(`Read the first ${count(paths.read, 'path')} of the ${count(paths.total, 'path')} the change touches.`);
  if (subjects.read < subjects.total) lines.push(`Read the first ${count(subjects.read, 'commit subject')} of ${subjects.total.toLocaleString('en-US')}.`);
  if (change.left_out > 0) lines.push(`${count(change.left_out, 'more lesson')} applied past the policy's limit (preflight.change_max: ${change.max}).`);
  return lines;
}

/** The section in markdown: the marker, the heading, each lesson with its checklist and why it is there. */
export function changeSectionMarkdown(change: ChangeLessons): string {
  const lines = [PR_SECTION_MARKER, `## ${CHANGE_HEADING}`, ''];
  if (change.lessons.length === 0) lines.push(NO_LESSONS_MARKER, NONE, '');
  for (const lesson of change.lessons) {
    lines.push(`### ${lesson.title}`, '', `${code(lesson.id)} · ${lesson.level} · ${lesson.severity} · ${code(lesson.path)}`, '');
    for (const item of lesson.checklist) lines.push(`- ${item}`);
    if (lesson.checklist.length > 0) lines.push('');
    lines.push(`Why: ${lesson.why.map(code).join(', ')}`, '');
  }
  const more = notes(change);
  if (more.length > 0) lines.push(...more.map((line) => `_${line}_`), '');
  return `${lines.join('\n')}\n`;
}

/** The section for the job's log: nothing when no lesson applies (the summary and the comment say so). */
export function changeSectionText(change: ChangeLessons): string[] {
  if (change.lessons.length === 0) return [];
  const lines = [`${CHANGE_HEADING}:`];
  for (const lesson of change.lessons) {
    lines.push(`  ${lesson.id}: ${lesson.title} (${lesson.why.join('; ')})`);
    for (const item of lesson.checklist) lines.push(`    - ${item}`);
  }
  lines.push(...notes(change).map((line) => `  ${line}`));
  return lines;
}
