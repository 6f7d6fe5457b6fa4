/**
 * What `lessons ask` searches: every lesson (title, summary, checklist, tags, keywords), the
 * fetched sources' ones included, and every markdown section under references/ (recorded
 * answers included), as plain documents.
 */
import path from 'node:path';
import type { IndexEntry } from '../index/build.js';
import { readText, walkFiles } from '../io/fs.js';

export const REFERENCES_DIR = 'references';

export interface SourceDoc {
  /** Unique: the path, plus `#n` for the n-th section of a reference file. */
  id: string;
  path: string;
  title: string;
  text: string;
  /** A lesson's id (`<source>:<id>` for a source's lesson); absent for a reference section. */
  lesson?: string;
}

export function lessonDocs(entries: readonly IndexEntry[]): SourceDoc[] {
  return entries
    .filter((entry) => entry.status !== 'retired')
    .map((entry) => ({
      id: entry.path,
      path: entry.path,
      lesson: entry.id,
      title: entry.title,
      text: [entry.summary, ...entry.checklist.map((item) => `- ${item}`), entry.tags.join(' '), entry.triggers.keywords.join(' ')].filter(Boolean).join('\n'),
    }));
}

/** A markdown file cut at its headings: each heading and the text under it is one document. */
export function markdownSections(rel: string, text: string): SourceDoc[] {
  const docs: SourceDoc[] = [];
  let title = path.posix.basename(rel, '.md');
  let body: string[] = [];
  let inFence = false;
  const flush = (): void => {
    const content = body.join('\n').trim();
    if (content !== '') docs.push({ id: `${rel}#${docs.length + 1}`, path: rel, title, text: content });
    body = [];
  };
  for (const line of text.replace(/\r\n/g, '\n').split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    const heading = inFence ? null : /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (heading) {
      flush();
      title = heading[1]!;
    } else body.push(line);
  }
  flush();
  return docs;
}

/** Markdown files under references/, recursively, in code-point order of path. */
export function referenceFiles(root: string): string[] {
  return walkFiles(root, { under: REFERENCES_DIR, keepFile: (name) => name.endsWith('.md') });
}

/** The sections of every reference file; a recorded answer a newer one superseded is left out (it stays on disk). */
export function referenceDocs(root: string): SourceDoc[] {
  return referenceFiles(root).flatMap((rel) => {
    const text = readText(path.join(root, rel));
    return /^Superseded: \d{4}-\d{2}-\d{2} by \S+$/m.test(text) ? [] : markdownSections(rel, text);
  });
}
