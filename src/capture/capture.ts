import path from 'node:path';
import { LessonsError, UsageError } from '../errors.js';
import { readText } from '../io/fs.js';
import { findRepoRoot } from '../io/repo.js';
import { extractDrafts } from './blocks.js';
import { storeDrafts, type CaptureOutcome } from './store.js';

export interface CaptureOptions {
  cwd: string;
  /** A file to read, `-` or undefined for standard input. */
  source?: string | undefined;
  now: Date;
  /** Standard input, read only when no file is given. */
  stdin: () => Promise<string>;
}

export interface CaptureResult {
  source: string;
  blocks: number;
  outcomes: CaptureOutcome[];
}

/** Reads a transcript or PR body and stores each lesson block in it (see storeDrafts). */
export async function captureLessons(options: CaptureOptions): Promise<CaptureResult> {
  findRepoRoot(options.cwd); // outside a lessons repository, say so before reading anything
  const fromStdin = options.source === undefined || options.source === '-';
  const text = fromStdin ? await options.stdin() : readInput(path.resolve(options.cwd, options.source!), options.source!);
  const drafts = extractDrafts(text);
  const outcomes = await storeDrafts({ cwd: options.cwd, drafts, now: options.now });
  return { source: fromStdin ? '-' : options.source!, blocks: drafts.length, outcomes };
}

function readInput(file: string, shown: string): string {
  try {
    return readText(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new UsageError(`cannot read ${shown}: no such file (pass a transcript file, or - to read standard input)`);
    throw new LessonsError('IO', `cannot read ${shown}: ${(error as Error).message}`);
  }
}
