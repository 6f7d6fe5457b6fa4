/**
 * `lessons ask`: before an agent asks a human, look for the answer in the lessons and
 * references/; `lessons ask --record` keeps a human's answer under references/answers/ so the
 * next `ask` finds it and the question is not asked twice.
 */
import fs from 'node:fs';
import path from 'node:path';
import { LessonsError, UsageError } from '../errors.js';
import { buildIndex } from '../index/build.js';
import { createInRepo, toPosixRelative } from '../io/fs.js';
import { findRepoRoot } from '../io/repo.js';
import { loadLessons } from '../lesson/load.js';
import { slugify } from '../lesson/new.js';
import { answerQuestions, type AskAnswer } from './search.js';
import { REFERENCES_DIR, lessonDocs, referenceDocs } from './sources.js';

export const ANSWERS_DIR = `${REFERENCES_DIR}/answers`;
export const MIN_ANSWER_CHARS = 20;

export async function askQuestions(options: { cwd: string; questions: string[]; perQuestion?: number }): Promise<AskAnswer[]> {
  const questions = options.questions.map((question) => question.trim()).filter(Boolean);
  if (questions.length === 0) throw new UsageError('no question: lessons ask "<question>" ["<question>" ...]');
  const root = findRepoRoot(options.cwd);
  const docs = [...lessonDocs(buildIndex(loadLessons(root).lessons).lessons), ...referenceDocs(root)];
  return answerQuestions(docs, questions, options.perQuestion);
}

/** The note a recorded answer becomes: the question as its heading, the answer as its text. */
export function answerNote(question: string, answer: string): string {
  return `# ${question.replace(/\s+/g, ' ').trim()}\n\n${answer.trim()}\n`;
}

export interface RecordResult {
  path: string;
  /** `exists`: an identical note was already there, nothing was written. */
  outcome: 'written' | 'exists';
}

export async function recordAnswer(options: { cwd: string; question: string; answer: string }): Promise<RecordResult> {
  const question = options.question.trim();
  const answer = options.answer.trim();
  if (question === '') throw new UsageError('--question is empty: say which question the answer is for');
  if (answer.length < MIN_ANSWER_CHARS) {
    throw new LessonsError('USAGE', `the answer is ${answer.length} characters long; record answers of at least ${MIN_ANSWER_CHARS} characters that stand on their own`, 1);
  }
  const root = findRepoRoot(options.cwd);
  const note = answerNote(question, answer);
  const slug = slugify(question);
  for (let n = 1; n < 100; n++) {
    const file = path.join(root, ANSWERS_DIR, `${n === 1 ? slug : `${slug}-${n}`}.md`);
    const rel = toPosixRelative(root, file);
    let existing: string | undefined;
    try {
      existing = fs.readFileSync(file, 'utf8');
    } catch {
      existing = undefined;
    }
    if (existing === note) return { path: rel, outcome: 'exists' };
    if (existing !== undefined) continue;
    try {
      createInRepo(root, file, note);
      return { path: rel, outcome: 'written' };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
      throw new LessonsError('IO', `cannot write ${rel}: ${(error as Error).message}`);
    }
  }
  throw new LessonsError('IO', `too many recorded answers named ${slug}: merge them by hand`);
}
