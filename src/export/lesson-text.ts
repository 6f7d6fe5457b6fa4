/**
 * Lesson text as every export renders it, as pure functions of index entries: the one order of
 * lessons, the checklist, the body of a one-lesson rule file, and text marked with the pieces
 * a budget warning names. No timestamps, sorted input: the same lessons give the same bytes.
 */
import type { IndexEntry } from '../index/build.js';
import type { Level, Severity } from '../lesson/model.js';
import { compareStrings } from '../util/compare.js';
import { generatedLine, type OwnedFiles, type Piece, type ReadLimit, type Rendered } from './target.js';

const LEVEL_ORDER: Record<Level, number> = { principle: 0, pattern: 1, case: 2 };
const SEVERITY_ORDER: Record<Severity, number> = { critical: 0, high: 1, medium: 2, low: 3 };

/**
 * Canonical and validated lessons in the order every export writes them: principles, then
 * patterns, then cases; the most severe first within a level; by id last. A tool that cuts a
 * long file cuts from the end, so this order is also what survives a cut.
 */
export function exportableLessons(entries: readonly IndexEntry[]): IndexEntry[] {
  return entries
    .filter((entry) => entry.status === 'canonical' || entry.status === 'validated')
    .sort((a, b) => LEVEL_ORDER[a.level] - LEVEL_ORDER[b.level] || SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] || compareStrings(a.id, b.id));
}

/** Canonical lessons of critical or high severity apply everywhere, whatever their trigger paths: they are shown at every session start. */
export function alwaysApplies(entry: IndexEntry): boolean {
  return entry.status === 'canonical' && (entry.severity === 'critical' || entry.severity === 'high');
}

/** What a tool that picks rules by description reads. */
export function ruleDescription(entry: IndexEntry): string {
  return `${entry.title} (${entry.severity} ${entry.level} lesson ${entry.id})`;
}

export function checklistItems(entry: IndexEntry): string[] {
  return entry.checklist.length > 0 ? entry.checklist.map((item) => `- [ ] ${item}`) : ['- [ ] (this lesson has no checklist yet)'];
}

/** A lesson id as a file name: a source's lesson `<source>:<id>` becomes `<source>--<id>` (no colon in a file name, and no id has `--`). */
export function idFileName(entry: IndexEntry): string {
  return entry.id.replace(':', '--');
}

/** Lines that remember where each named piece ends, for the budget warnings. The text ends in a newline. */
export class Lines {
  private readonly lines: string[] = [];
  private size = 0;
  readonly pieces: Piece[] = [];

  push(...lines: string[]): this {
    for (const line of lines) {
      this.lines.push(line);
      this.size += line.length + 1;
    }
    return this;
  }

  /** The piece `label` ends after the lines pushed so far. */
  mark(label: string): this {
    this.pieces.push({ label, end: this.size });
    return this;
  }

  text(): string {
    return `${this.lines.join('\n')}\n`;
  }

  /** The text as the file `rel` (or the section in it), read under `limit` when a tool cuts it. */
  at(rel: string, limit?: ReadLimit): Rendered {
    return limit ? { rel, text: this.text(), pieces: this.pieces, limit } : { rel, text: this.text(), pieces: this.pieces };
  }
}

/** Where `entry`'s own file of a target lives. */
export function ownedFile(owned: OwnedFiles, entry: IndexEntry): string {
  return `${owned.dir}/${owned.prefix}${idFileName(entry)}${owned.suffix}`;
}

const CODE_SPAN = /(`+)[\s\S]*?\1/g;
const AT_WORD_START = /(^|[ \t\r\n])@(?=\S)/g;

/**
 * `text` with no `@` at the start of a word outside code spans: Gemini CLI reads `@path` in a
 * GEMINI.md as an import of that file (google-gemini/gemini-cli
 * packages/core/src/utils/memoryImportProcessor.ts, `findImports`), Claude Code reads `@path`
 * in CLAUDE.md likewise (https://code.claude.com/docs/en/memory#import-additional-files). A
 * lesson that mentions `@types/node` or `@alice` would pull in a file or leave an error comment.
 * `\@` renders as `@` in Markdown.
 */
export function withoutImports(text: string): string {
  let out = '';
  let last = 0;
  for (const match of text.matchAll(CODE_SPAN)) {
    out += text.slice(last, match.index).replace(AT_WORD_START, '$1\\@') + match[0];
    last = match.index + match[0].length;
  }
  return out + text.slice(last).replace(AT_WORD_START, '$1\\@');
}

/**
 * The body of a one-lesson rule file, after its frontmatter: the generated line, the title,
 * the summary and the checklist, each checklist item a piece (what a cut would lose).
 */
export function ruleBody(lines: Lines, entry: IndexEntry, target: string, clean: (text: string) => string = (text) => text): Lines {
  lines.push(`<!-- ${generatedLine(target)} from ${entry.path}: edit the lesson, then run it again. -->`, '', `# ${clean(entry.title)}`, '');
  if (entry.summary) lines.push(clean(entry.summary), '');
  lines.mark(`${entry.id} (title and summary)`).push('## Prevention Checklist', '');
  checklistItems(entry).forEach((item, index, items) => lines.push(clean(item)).mark(`${entry.id} (checklist item ${index + 1} of ${items.length})`));
  return lines;
}
