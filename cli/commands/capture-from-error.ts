import fs from 'node:fs';
import { UsageError } from '../../src/errors.js';
import type { GlobalArgs, Io } from '../command.js';
import { escalation, redaction } from './capture-outcome.js';

export interface FromErrorArgs extends GlobalArgs {
  /** The log file, or - for stdin. */
  fromError: string;
  json: boolean;
  /** What the log shows: `error` (the default) or `success`. */
  outcome?: 'error' | 'success';
}

/** The most log that is read; the prompt keeps its head and tail anyway. */
const MAX_LOG_BYTES = 32 * 1024 * 1024;

async function readLog(source: string): Promise<string> {
  if (source === '-') {
    const chunks: Buffer[] = [];
    let total = 0;
    for await (const chunk of process.stdin) {
      if (total >= MAX_LOG_BYTES) continue;
      chunks.push(chunk as Buffer);
      total += (chunk as Buffer).length;
    }
    return Buffer.concat(chunks).subarray(0, MAX_LOG_BYTES).toString('utf8');
  }
  try {
    const size = fs.statSync(source).size;
    if (size > MAX_LOG_BYTES) throw new UsageError(`the log \`${source}\` is ${size} bytes: pass the part around the error (tail -c 1000000 ${source} | lessons capture --from-error -)`);
    return fs.readFileSync(source, 'utf8');
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`cannot read the log \`${source}\`: ${(error as Error).message}; pass a log file or - for stdin`);
  }
}

/**
 * `lessons capture --from-error <log|->`: the reviewer generalises an error into a candidate
 * case; with outcome `success` (`--from-success`) it draws a best practice from a log of work that went well.
 */
export async function runFromError(argv: FromErrorArgs, io: Io): Promise<0 | 1 | 2> {
  const { findRepoRoot } = await import('../../src/io/repo.js');
  const { loadPolicy } = await import('../../src/policy/validate-policy.js');
  const { extractLesson } = await import('../../src/review/extract.js');
  const { storeDrafts } = await import('../../src/capture/store.js');
  const cwd = argv.C ?? process.cwd();
  const root = findRepoRoot(cwd);
  const log = await readLog(argv.fromError);
  if (log.trim() === '') throw new UsageError(`the log ${argv.fromError === '-' ? 'on stdin' : `\`${argv.fromError}\``} is empty: pass the output of the failed command`);
  const policy = loadPolicy(root);
  const outcome = argv.outcome ?? 'error';
  const extraction = await extractLesson({ root, review: policy.review, log, outcome });
  if (extraction.kind === 'problem') {
    const { problem } = extraction;
    if (argv.json) io.out(JSON.stringify({ written: [], problem }, null, 2));
    else io.err(`lessons: nothing captured: ${problem.message}\n  fix: ${problem.fix}${problem.evidence ? `\n  evidence: ${problem.evidence.split('\n').join('\n    ')}` : ''}`);
    return 1;
  }
  if (extraction.kind === 'low-confidence') {
    const { confidence, title } = extraction.answer;
    if (argv.json) io.out(JSON.stringify({ written: [], confidence, min_confidence: extraction.minConfidence, title }, null, 2));
    else io.out(`nothing written: the reviewer's confidence ${confidence} is below review.min_confidence ${extraction.minConfidence}${title.trim() ? ` (draft: ${title.trim()})` : ''}`);
    return 0;
  }
  const outcomes = await storeDrafts({ cwd: root, drafts: [extraction.draft], now: new Date() });
  if (argv.json) {
    io.out(JSON.stringify({ written: outcomes, confidence: extraction.answer.confidence, type: extraction.draft.insight ?? extraction.answer.type }, null, 2));
  } else {
    for (const written of outcomes) {
      io.out(`${written.action === 'created' ? `created ${written.path} (candidate, source: auto${outcome === 'success' ? ', best practice' : ''})` : `bumped ${written.path}: the same lesson was captured before (occurrences + 1)${escalation(written)}`}${redaction(written)}`);
    }
  }
  return 0;
}
