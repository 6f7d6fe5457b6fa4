/**
 * Recorded answers under references/answers/: one markdown note per answer, the question as its
 * heading, then the answer, then when, to what and from whom it was given. A newer answer to the
 * same question (same slug) is written beside the older ones, which are kept and marked
 * `Superseded:` so `lessons ask` shows only the newest. Writes are atomic and serialised by a lock.
 */
import path from 'node:path';
import { LessonsError, UsageError } from '../errors.js';
import { createInRepo, readText, toPosixRelative, writeInRepo } from '../io/fs.js';
import { listDirIfExists } from '../io/paths.js';
import { withLock } from '../io/lock.js';
import { findRepoRoot } from '../io/repo.js';
import { slugify } from '../lifecycle/new.js';
import { compareStrings } from '../util/compare.js';
import { toIsoDate } from '../util/dates.js';
import { REFERENCES_DIR } from './sources.js';

export const ANSWERS_DIR = `${REFERENCES_DIR}/answers`;
export const MIN_ANSWER_CHARS = 20;
export const DEFAULT_PROVENANCE = 'a person, recorded with lessons ask --record';

const SUPERSEDED = /^Superseded: (\d{4}-\d{2}-\d{2}) by (\S+)$/m;

export interface AnswerNote {
  question: string;
  answer: string;
  answered: string;
  provenance: string;
}

/** The note a recorded answer becomes. */
export function answerNote(note: AnswerNote): string {
  const question = note.question.replace(/\s+/g, ' ').trim();
  return `# ${question}\n\n${note.answer.trim()}\n\nQuestion: ${question}\nAnswered: ${note.answered}\nProvenance: ${note.provenance.replace(/\s+/g, ' ').trim()}\n`;
}

/** The answer text of a note (between the heading and the metadata), for comparing answers. */
export function answerText(note: string): string {
  return note
    .replace(/^# .*\n/, '')
    .replace(SUPERSEDED, '')
    .replace(/\n(?:Question|Answered|Provenance): .*/g, '')
    .trim();
}

/** The newer note that replaces this one, when it was superseded. */
export function supersededBy(note: string): { date: string; path: string } | undefined {
  const match = SUPERSEDED.exec(note);
  return match ? { date: match[1]!, path: match[2]! } : undefined;
}

export interface RecordResult {
  path: string;
  /** `exists`: the newest answer to the question already says this; nothing was written. */
  outcome: 'written' | 'exists';
  /** Older answers to the same question, now marked as superseded by this one. */
  superseded: string[];
}

export async function recordAnswer(options: { cwd: string; question: string; answer: string; provenance?: string | undefined; now: Date }): Promise<RecordResult> {
  const question = options.question.trim();
  const answer = options.answer.trim();
  if (question === '') throw new UsageError('--question is empty: say which question the answer is for');
  if (answer.length < MIN_ANSWER_CHARS) {
    throw new LessonsError('USAGE', `the answer is ${answer.length} characters long; record answers of at least ${MIN_ANSWER_CHARS} characters that stand on their own`, 1);
  }
  const provenance = options.provenance?.trim() || DEFAULT_PROVENANCE;
  const root = findRepoRoot(options.cwd);
  const slug = slugify(question);
  const answered = toIsoDate(options.now);
  return withLock(root, 'answers', () => {
    const dir = path.join(root, ANSWERS_DIR);
    const names = listDirIfExists(dir).filter((name) => name === `${slug}.md` || new RegExp(`^${slug}-\\d+\\.md$`).test(name));
    const previous = names
      .map((name) => ({ rel: `${ANSWERS_DIR}/${name}`, text: readText(path.join(dir, name)) }))
      .sort((a, b) => compareStrings(a.rel, b.rel));
    const current = previous.filter((note) => supersededBy(note.text) === undefined);
    const same = current.find((note) => answerText(note.text) === answer);
    if (same) return { path: same.rel, outcome: 'exists' as const, superseded: [] };
    let n = previous.length + 1;
    while (names.includes(n === 1 ? `${slug}.md` : `${slug}-${n}.md`)) n++;
    const file = path.join(dir, n === 1 ? `${slug}.md` : `${slug}-${n}.md`);
    const rel = toPosixRelative(root, file);
    try {
      createInRepo(root, file, answerNote({ question, answer, answered, provenance }));
    } catch (error) {
      throw new LessonsError('IO', `cannot write ${rel}: ${(error as Error).message}`);
    }
    for (const note of current) {
      const marked = note.text.replace(/^(# .*\n)/, `$1\nSuperseded: ${answered} by ${rel}\n`);
      writeInRepo(root, note.rel, marked);
    }
    return { path: rel, outcome: 'written' as const, superseded: current.map((note) => note.rel) };
  });
}
