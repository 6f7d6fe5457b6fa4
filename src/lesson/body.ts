import { CHECKLIST_HEADING } from './model.js';

export interface Section {
  heading: string;
  /** File-independent line of the heading within the body (1-based). */
  line: number;
  text: string;
}

/** The `## ` sections of a lesson body, in order. Text before the first heading is dropped. */
export function sections(body: string): Section[] {
  const result: Section[] = [];
  let current: Section | undefined;
  let inFence = false;
  body.split('\n').forEach((line, i) => {
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    const heading = inFence ? null : /^##\s+(.+?)\s*#*\s*$/.exec(line);
    if (heading?.[1] && !line.startsWith('###')) {
      current = { heading: heading[1], line: i + 1, text: '' };
      result.push(current);
    } else if (current) {
      current.text += current.text === '' ? line : `\n${line}`;
    }
  });
  for (const section of result) section.text = section.text.trim();
  return result;
}

export function findSection(body: string, heading: string): Section | undefined {
  const wanted = heading.toLowerCase();
  return sections(body).find((section) => section.heading.toLowerCase() === wanted);
}

const CHECKLIST_LINE = new RegExp(`^##[ \\t]+${CHECKLIST_HEADING}[ \\t#]*$`, 'im');

/**
 * The text of the `## Prevention Checklist` section. Without code fences (nearly every lesson)
 * a direct search finds it; with them, the full section parse keeps fenced `##` lines out.
 */
function checklistText(body: string): string | undefined {
  if (body.includes('```') || body.includes('~~~')) return findSection(body, CHECKLIST_HEADING)?.text;
  const heading = CHECKLIST_LINE.exec(body);
  if (!heading) return undefined;
  const rest = body.slice(heading.index + heading[0].length);
  const next = /^##(?!#)\s/m.exec(rest);
  return next ? rest.slice(0, next.index) : rest;
}

/** The items of the `## Prevention Checklist` list, without their `- [ ]` markers. */
export function checklistItems(body: string): string[] {
  const text = checklistText(body);
  if (text === undefined) return [];
  const items: string[] = [];
  for (const line of text.split('\n')) {
    const match = /^\s*[-*+]\s+(.*)$/.exec(line);
    const item = match?.[1]?.replace(/^\[[ xX]\]/, '').trim();
    if (item) items.push(item);
  }
  return items;
}

/**
 * The first paragraph of prose in the body, as one line: the summary when the frontmatter has
 * none. Headings and one-line HTML comments (a template's prompts) are not prose.
 */
export function firstParagraph(body: string): string {
  const paragraph: string[] = [];
  for (const raw of body.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('#') || line === '' || /^<!--.*-->$/.test(line)) {
      if (paragraph.length > 0) break;
      continue;
    }
    paragraph.push(line);
  }
  return paragraph.join(' ');
}

export interface CodeSnippets {
  spans: string[];
  lines: string[];
}

/** Inline code spans, and the lines of fenced code blocks, of a markdown body. */
export function codeSnippets(body: string): CodeSnippets {
  const spans: string[] = [];
  const lines: string[] = [];
  let fenced = false;
  for (const line of body.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    else if (fenced) lines.push(line.trim().replace(/^\$\s+/, ''));
    else if (line.includes('`')) for (const match of line.matchAll(/`([^`]+)`/g)) spans.push(match[1]!.trim());
  }
  return { spans, lines };
}
