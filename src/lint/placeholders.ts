/**
 * Text a person was meant to replace: the prompts `lessons new` writes into each section of its
 * template (HTML comments) and the sentence `lessons promote` opens a pattern's Situation with.
 * Left in, it reaches preflight and the exported AGENTS.md word for word. Lint warns on it;
 * `lessons accept` refuses the lesson, naming the section.
 */
import { sections } from '../lesson/body.js';
import type { FileRule } from './rules.js';

export interface Placeholder {
  /** The section's heading, as written. */
  section: string;
  what: 'template prompt' | 'promote placeholder';
}

const COMMENT = /<!--[\s\S]*?-->/g;
/** promotedBody() in lifecycle/promote.ts writes this line for the steward to rewrite. */
const PROMOTE_SENTENCE = /^What the \d+ (?:cases|patterns) below have in common, and where it applies\.$/m;

/** The sections of a body that still hold placeholder text: a section of template prompts only, or promote's opening sentence. */
export function placeholdersIn(body: string): Placeholder[] {
  const found: Placeholder[] = [];
  for (const section of sections(body)) {
    if (PROMOTE_SENTENCE.test(section.text)) found.push({ section: section.heading, what: 'promote placeholder' });
    else if (COMMENT.test(section.text) && section.text.replace(COMMENT, '').trim() === '') found.push({ section: section.heading, what: 'template prompt' });
    COMMENT.lastIndex = 0;
  }
  return found;
}

/** How a placeholder is named to the person who must replace it. */
export function placeholderMessage(placeholder: Placeholder): string {
  return `\`## ${placeholder.section}\` still holds the ${placeholder.what}: write what happened there (or delete the section)`;
}

/** Retired lessons are history: their text is not shown, so it is not checked. */
export const placeholderRule: FileRule = (item) =>
  item.lesson.status === 'retired' ? [] : placeholdersIn(item.lesson.body).map((placeholder) => ({ rule: 'placeholder', severity: 'warning' as const, file: item.path, message: placeholderMessage(placeholder) }));

