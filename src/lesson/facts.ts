import type { Finding } from './finding.js';
import { checklistItems, codeSnippets, firstParagraph, type CodeSnippets } from './body.js';
import { addLessonFile, type LoadedLesson, type LoadedTree } from './load.js';
import type { Level, LessonMeta } from './model.js';

/** A secret match without its file (the file is the entry's path). */
export interface FileSecretMatch {
  rule: string;
  line: number;
  masked: string;
  fingerprint: string;
}

/**
 * What one lesson file's path and bytes give, whatever the rest of the tree holds: the file
 * cache keeps it by content, so a run parses only the files that changed. The commands
 * read the tree from these summaries, cached or fresh alike, so a warm run and a cold one
 * take the same path to their output.
 */
export interface LessonFacts {
  /** Problems of the file itself (too big, not UTF-8, no frontmatter, CRLF...). */
  problems: Finding[];
  /** Absent when the file did not parse. */
  lesson?: {
    /** The fields with their defaults; `summary` already falls back to the body's first paragraph. */
    meta: LessonMeta;
    folderLevel: Level;
    keyLines: [string, number][];
    /** The raw values of the fields the index checks before it builds (id, title, level, status). */
    raw: Record<string, unknown>;
    checklist: string[];
    /** The code the body names (report's drift section), when it names any. */
    code?: CodeSnippets;
    /** The file rules' findings, when the caller asked for them (lint, the guard). */
    fileFindings?: Finding[];
  };
  /** The secret matches of the file's text and decoded values, under the rule set with this digest. */
  secrets?: { digest: string; matches: FileSecretMatch[]; index?: { lines: IndexLineScan[]; unparsed: number[] } };
}

/** lessons/index.json only: one line's candidate matches, kept so the next version of the file rescans only the lines that differ. */
export interface IndexLineScan {
  line: number;
  raw: FileSecretMatch[];
  decoded: FileSecretMatch[];
}

/** What a caller wants computed beyond the parse; each is a function of the file alone. */
export interface FactsWanted {
  fileFindings?: (item: LoadedLesson) => Finding[];
  secrets?: { digest: string; scan: (relPath: string, bytes: Uint8Array, item: LoadedLesson | undefined) => FileSecretMatch[] };
}

/** The shape of LessonFacts; part of the cache's key, so facts of another shape are never read. */
export const FACTS_VERSION = 1;

const RAW_KEYS = ['id', 'title', 'level', 'status'] as const;

/** Parses one file's bytes into its facts; pure. */
export function factsOf(relPath: string, bytes: Uint8Array, level: Level, wanted: FactsWanted): LessonFacts {
  const one: LoadedTree = { lessons: [], problems: [] };
  addLessonFile(one, relPath, bytes, level);
  const facts: LessonFacts = { problems: one.problems };
  const item = one.lessons[0];
  if (item) {
    const { extra: _extra, body, ...meta } = item.lesson;
    const raw: Record<string, unknown> = {};
    for (const key of RAW_KEYS) if (key in item.parsed.data) raw[key] = item.parsed.data[key];
    facts.lesson = {
      meta: { ...meta, summary: meta.summary ?? firstParagraph(body) },
      folderLevel: item.folderLevel,
      keyLines: [...item.parsed.keyLines],
      raw,
      checklist: checklistItems(body),
      ...withCode(codeSnippets(body)),
      ...(wanted.fileFindings ? { fileFindings: wanted.fileFindings(item) } : {}),
    };
  }
  if (wanted.secrets) facts.secrets = { digest: wanted.secrets.digest, matches: wanted.secrets.scan(relPath, bytes, item) };
  return facts;
}

function withCode(code: CodeSnippets): { code?: CodeSnippets } {
  return code.spans.length + code.lines.length === 0 ? {} : { code };
}

/** Whether cached facts hold everything `wanted` asks for (otherwise the file is parsed again). */
export function factsCover(facts: LessonFacts, wanted: FactsWanted): boolean {
  if (wanted.fileFindings && facts.lesson && facts.lesson.fileFindings === undefined) return false;
  if (wanted.secrets && facts.secrets?.digest !== wanted.secrets.digest) return false;
  return true;
}

/**
 * The lesson the commands see from facts: its fields, key lines and precomputed derivations,
 * with an empty body (nothing that reads a tree of these needs the body).
 */
export function lessonFromFacts(relPath: string, facts: LessonFacts): LoadedLesson | undefined {
  const summary = facts.lesson;
  if (!summary) return undefined;
  // One object per facts and path: the two sides of a guard run share the lessons a change leaves alone.
  const known = made.get(facts);
  if (known?.path === relPath) return known;
  const lesson: LoadedLesson = {
    lesson: { ...summary.meta, extra: {}, body: '' },
    path: relPath,
    folderLevel: summary.folderLevel,
    parsed: { data: summary.raw, body: '', keyLines: new Map(summary.keyLines), frontmatter: '' },
    precomputed: { checklist: summary.checklist, code: summary.code ?? { spans: [], lines: [] }, ...(summary.fileFindings ? { fileFindings: summary.fileFindings } : {}) },
  };
  made.set(facts, lesson);
  return lesson;
}

const made = new WeakMap<LessonFacts, LoadedLesson>();

/** One lesson file's tree (its lesson, or its problems), from its bytes. */
export function lessonTree(relPath: string, bytes: Uint8Array, level: Level): LoadedTree {
  const tree: LoadedTree = { lessons: [], problems: [] };
  addFacts(tree, relPath, factsOf(relPath, bytes, level, {}));
  return tree;
}

/** Adds one file's facts to a tree being assembled in path order. */
export function addFacts(tree: LoadedTree, relPath: string, facts: LessonFacts): void {
  tree.problems.push(...facts.problems);
  const lesson = lessonFromFacts(relPath, facts);
  if (lesson) tree.lessons.push(lesson);
}
