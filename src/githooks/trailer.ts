import path from 'node:path';
import { readTextIfExists } from '../io/fs.js';
import { pathExists } from '../io/paths.js';
import { addTrailerIfAbsent, messageTrailers } from '../io/git/log.js';
import { readIndexText } from '../io/index-file.js';
import type { IndexEntry } from '../index/build.js';
import { parseIndexEntries } from '../index/read.js';
import { IndexLineSource } from '../search/engine.js';
import { stagedChanges } from '../io/git/changes.js';
import { configValue, gitPath, openRepo, resolveCommit, type GitRepo } from '../io/git/repo.js';
import { findRepoRoot } from '../io/repo.js';
import { readPolicyFile } from '../io/policy-file.js';
import { readReceiptText } from '../io/receipt-file.js';
import { resolvePolicy } from '../policy/policy.js';
import { PREFLIGHT_TRAILER } from '../guard/commits.js';
import { judgeReceipt } from '../guard/receipt.js';
import { clearPreCommitMark, preCommitChecked } from './commit-check.js';
import { receiptRelation, type LessonFacts } from './receipt-relation.js';

export interface TrailerOutcome {
  added: boolean;
  /** Why not, or what was added: one line for the hook to print. */
  note: string;
  /**
   * Whether the hook should print the note: a missing receipt is said once per commit, by the
   * pre-commit guard, or by commit-msg when no guard ran.
   */
  warn?: boolean;
}

/**
 * Whether the message has words of its own: lines that are not comments, above git's
 * scissors line. An empty message makes git abort the commit, and a trailer must not stop that.
 */
export function hasOwnText(message: string, commentChar: string): boolean {
  for (const line of message.split('\n')) {
    if (line.startsWith(`${commentChar} `) && line.includes('>8')) break;
    if (line.startsWith(commentChar)) continue;
    if (line.trim() !== '') return true;
  }
  return false;
}

/** prepare-commit-msg's second argument: git's own merge and squash messages are left alone. */
export function skipsSource(source: string | undefined): boolean {
  return source === 'merge' || source === 'squash';
}

async function commentChar(repo: GitRepo): Promise<string> {
  const value = await configValue(repo, 'core.commentChar');
  return value === undefined || value === 'auto' || value === '' ? '#' : value.charAt(0);
}

/** git is concluding a merge or a squash (commit-msg gets no source argument, so it asks the repository). */
async function mergeOrSquashInProgress(repo: GitRepo): Promise<boolean> {
  if (await resolveCommit(repo, 'MERGE_HEAD')) return true;
  return pathExists(await gitPath(repo, 'SQUASH_MSG'));
}

export interface TrailerOptions {
  cwd: string;
  file: string;
  /** prepare-commit-msg's source argument; undefined for commit-msg. */
  source?: string | undefined;
  hook: 'prepare-commit-msg' | 'commit-msg';
  now: Date;
}

/**
 * Appends `Lessons-Preflight: <ids or none>` from a fresh receipt, with git interpret-trailers
 * semantics: once (an existing trailer wins), never on merge or squash messages, never onto an
 * empty message (commit-msg adds it after the editor closes), never under
 * `git commit --no-verify` (see commit-check.ts), and naming only the receipt's lessons that
 * relate to the staged change (receipt-relation.ts): all of them when the preflight was for
 * this change, those whose triggers or words the change shares otherwise, none (no trailer, and
 * the hook says why) when nothing relates.
 */
export async function addPreflightTrailer(options: TrailerOptions): Promise<TrailerOutcome> {
  const outcome = await trailerOutcome(options);
  if (options.hook === 'commit-msg') {
    try {
      clearPreCommitMark(findRepoRoot(options.cwd));
    } catch {
      // outside a lessons repository there is no mark
    }
  }
  return outcome;
}

async function trailerOutcome(options: TrailerOptions): Promise<TrailerOutcome> {
  if (skipsSource(options.source)) return { added: false, note: `no trailer on a ${options.source} message` };
  let root: string;
  try {
    root = findRepoRoot(options.cwd);
  } catch {
    return { added: false, note: 'not a lessons repository: no trailer' };
  }
  const repo = await openRepo(options.cwd);
  if (options.hook === 'commit-msg' && (await mergeOrSquashInProgress(repo))) return { added: false, note: 'no trailer on a merge or squash message' };
  const file = path.resolve(options.cwd, options.file);
  const message = readTextIfExists(file);
  if (message === undefined) return { added: false, note: `${options.file} does not exist: no trailer` };
  if (!hasOwnText(message, await commentChar(repo))) return { added: false, note: 'the message is empty so far: no trailer yet' };
  const checked = await preCommitChecked(root, repo);
  if (options.hook === 'prepare-commit-msg' && !checked) {
    return { added: false, note: 'the pre-commit check did not run for this commit (`git commit --no-verify`): no trailer' };
  }
  const policy = resolvePolicy(readPolicyFile(root).data);
  const receipt = judgeReceipt(readReceiptText(root), options.now, policy.preflight.receipt_max_age_minutes);
  if (receipt.state !== 'fresh') {
    return {
      added: false,
      note: `no fresh preflight receipt, so no ${PREFLIGHT_TRAILER} trailer: run \`lessons preflight "<task>"\` at the start of a task`,
      warn: options.hook === 'commit-msg' && !checked,
    };
  }
  const stagedPaths = (await stagedChanges(repo)).map((change) => change.path);
  const relation = receiptRelation({ receipt: receipt.receipt, stagedPaths, message, lessonOf: indexedLessonOf(root) });
  if (!relation.used) {
    return {
      added: false,
      note: `the preflight receipt (${receipt.ageMinutes} min old) was not used: ${relation.why}; no ${PREFLIGHT_TRAILER} trailer: run \`lessons preflight "<task>"\` for this change`,
      warn: options.hook === 'commit-msg',
    };
  }
  if (await hasTrailer(repo, file)) return { added: false, note: `the message already has a ${PREFLIGHT_TRAILER} trailer` };
  const value = relation.ids.length === 0 ? 'none' : relation.ids.join(', ');
  await addTrailerIfAbsent(repo, file, PREFLIGHT_TRAILER, value);
  if (relation.leftOut.length === 0) return { added: true, note: `${PREFLIGHT_TRAILER}: ${value}` };
  return {
    added: true,
    note: `${PREFLIGHT_TRAILER}: ${value} (left out ${relation.leftOut.join(', ')} from the preflight for "${receipt.receipt.task}": they do not relate to the staged paths or the message)`,
    warn: true,
  };
}

async function hasTrailer(repo: GitRepo, file: string): Promise<boolean> {
  return (await messageTrailers(repo, file)).some((trailer) => trailer.key.toLowerCase() === PREFLIGHT_TRAILER.toLowerCase());
}

/** A selected lesson's title, tags and triggers, from lessons/index.json (looked up by id; the index is parsed whole only when it is not in its usual layout). */
function indexedLessonOf(root: string): (id: string) => LessonFacts | undefined {
  let text: string | undefined | null = null;
  let lines: IndexLineSource | undefined;
  let parsed: Map<string, IndexEntry> | undefined;
  return (id) => {
    if (text === null) text = readIndexText(root);
    if (text === undefined) return undefined;
    lines ??= new IndexLineSource(Buffer.from(text));
    const line = lines.find(id);
    if (line === null) return undefined;
    if (line !== undefined) return JSON.parse(line.json) as IndexEntry;
    parsed ??= new Map((parseIndexEntries(text) ?? []).map((entry) => [entry.id, entry]));
    return parsed.get(id);
  };
}
