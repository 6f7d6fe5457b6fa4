import fs from 'node:fs';
import path from 'node:path';
import { LessonsError } from '../errors.js';
import { createFileExclusive, toPosixRelative, writeFileAtomic } from '../io/fs.js';
import { findRepoRoot, levelDir, lessonDirs } from '../io/repo.js';
import { loadLessons } from '../lesson/load.js';
import { emptyTriggers, type Lesson, type Severity, type Triggers } from '../lesson/model.js';
import { baseId } from '../lesson/new.js';
import { serializeLesson } from '../lesson/serialize.js';
import { toIsoDate } from '../util/dates.js';

/** A lesson a tool drafted, before it is stored as a candidate case. */
export interface Draft {
  title: string;
  summary?: string;
  tags: string[];
  severity?: Severity;
  body: string;
  triggers?: Partial<Triggers>;
  /** On the lesson scale, 1..5. */
  confidence?: number;
}

export interface CaptureOutcome {
  action: 'created' | 'bumped';
  id: string;
  path: string;
  duplicateOf?: string;
  similarity?: number;
}

/** Titles compared as their lower-case words: punctuation and spacing do not make a new lesson. */
export function normaliseTitle(title: string): string {
  return title.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean).join(' ');
}

/**
 * Stores each draft as a `source: auto` candidate case, or, when a lesson with the same
 * normalised title exists, bumps that lesson's `occurrences` and `last_seen` instead.
 */
export async function storeDrafts(options: { cwd: string; drafts: Draft[]; now: Date }): Promise<CaptureOutcome[]> {
  const root = findRepoRoot(options.cwd);
  const today = toIsoDate(options.now);
  const outcomes: CaptureOutcome[] = [];
  for (const draft of options.drafts) {
    const existing = loadLessons(root).lessons.find((item) => item.lesson.id !== '' && normaliseTitle(item.lesson.title) === normaliseTitle(draft.title));
    if (existing) {
      const bumped: Lesson = { ...existing.lesson, occurrences: existing.lesson.occurrences + 1, last_seen: today };
      writeFileAtomic(path.join(root, existing.path), serializeLesson(bumped));
      outcomes.push({ action: 'bumped', id: existing.lesson.id, path: existing.path, duplicateOf: existing.lesson.id, similarity: 1 });
      continue;
    }
    outcomes.push(createCandidate(root, draft, today));
  }
  return outcomes;
}

function createCandidate(root: string, draft: Draft, today: string): CaptureOutcome {
  const base = baseId('case', draft.title, today);
  const lesson: Lesson = {
    id: base,
    title: draft.title.trim(),
    level: 'case',
    status: 'candidate',
    severity: draft.severity ?? 'medium',
    tags: [...new Set(draft.tags)],
    confidence: draft.confidence ?? 2,
    transferability: 2,
    source: 'auto',
    occurrences: 1,
    created_at: today,
    last_seen: today,
    last_validated_at: null,
    summary: draft.summary ?? null,
    project: null,
    source_case_ids: [],
    applications: [],
    source_pattern_ids: [],
    duplicate_of: null,
    superseded_by: null,
    retired_reason: null,
    triggers: { ...emptyTriggers(), ...draft.triggers },
    extra: {},
    body: draft.body,
  };
  for (let n = 1; n < 1000; n++) {
    const id = n === 1 ? base : `${base}-${n}`;
    if (lessonDirs(root).some(({ dir }) => fs.existsSync(path.join(dir, `${id}.md`)))) continue;
    const file = path.join(levelDir(root, 'case'), `${id}.md`);
    try {
      createFileExclusive(file, serializeLesson({ ...lesson, id }));
      return { action: 'created', id, path: toPosixRelative(root, file) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw new LessonsError('IO', `cannot write ${toPosixRelative(root, file)}: ${(error as Error).message}`);
    }
  }
  throw new LessonsError('LESSON_EXISTS', `no free id near \`${base}\`: the draft's title is too common`);
}
