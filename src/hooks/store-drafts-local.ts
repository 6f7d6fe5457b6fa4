/**
 * A small local store for captured drafts, used by the Stop hook and the MCP `capture` tool.
 * REPLACE at merge with `storeDrafts` from src/capture/store.ts (the capture issue's store, which
 * also bumps `occurrences` on near-duplicates); the call sites pass { cwd, drafts, now }.
 */
import path from 'node:path';
import { createFileExclusive, toPosixRelative } from '../io/fs.js';
import { levelDir } from '../io/repo.js';
import { baseId } from '../lesson/new.js';
import { CHECKLIST_HEADING, emptyTriggers, type Lesson } from '../lesson/model.js';
import { serializeLesson } from '../lesson/serialize.js';
import { toIsoDate } from '../util/dates.js';
import type { Draft } from './blocks.js';

export interface StoredDraft {
  title: string;
  /** Repo-relative path of the candidate written, or of the lesson it duplicates. */
  path: string;
  outcome: 'written' | 'duplicate';
}

function draftLesson(draft: Draft, id: string, today: string): Lesson {
  const checklist = draft.checklist.length > 0 ? draft.checklist.map((item) => `- [ ] ${item}`).join('\n') : '- [ ] ';
  const situation = draft.text === '' ? draft.title : draft.text;
  return {
    id,
    title: draft.title,
    level: 'case',
    status: 'candidate',
    severity: 'medium',
    tags: draft.kind === 'PROCESS_KNOWLEDGE' ? ['process-knowledge'] : [],
    confidence: 2,
    transferability: 2,
    source: 'auto',
    occurrences: 1,
    created_at: today,
    last_seen: today,
    last_validated_at: null,
    summary: null,
    project: null,
    source_case_ids: [],
    applications: [],
    source_pattern_ids: [],
    duplicate_of: null,
    superseded_by: null,
    retired_reason: null,
    triggers: emptyTriggers(),
    extra: {},
    body: `## Situation\n\n${situation}\n\n## ${CHECKLIST_HEADING}\n\n${checklist}\n`,
  };
}

/**
 * Writes each draft as a candidate case (`source: auto`), unless a lesson with the same title
 * exists (`knownTitles`: lower-cased title -> path). Never overwrites a file.
 */
export function storeDraftsLocal(options: { root: string; drafts: readonly Draft[]; now: Date; knownTitles: ReadonlyMap<string, string> }): StoredDraft[] {
  const today = toIsoDate(options.now);
  const stored: StoredDraft[] = [];
  const titles = new Map(options.knownTitles);
  for (const draft of options.drafts) {
    const known = titles.get(draft.title.toLowerCase());
    if (known !== undefined) {
      stored.push({ title: draft.title, path: known, outcome: 'duplicate' });
      continue;
    }
    const base = baseId('case', draft.title, today);
    for (let n = 1; n < 100; n++) {
      const id = n === 1 ? base : `${base}-${n}`;
      const file = path.join(levelDir(options.root, 'case'), `${id}.md`);
      try {
        createFileExclusive(file, serializeLesson(draftLesson(draft, id, today)));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
        throw error;
      }
      const rel = toPosixRelative(options.root, file);
      titles.set(draft.title.toLowerCase(), rel);
      stored.push({ title: draft.title, path: rel, outcome: 'written' });
      break;
    }
  }
  return stored;
}
