/**
 * The Stop hook's draft from a session's red -> green pair (red-green.ts): one per session,
 * never from a plain success. With the reviewer configured (policy review.enabled) the pair
 * goes through `lessons capture --from-error`, the same path as by hand (schema-checked answer,
 * review.min_confidence floor); a reviewer takes longer than a hook may, so that runs in the
 * background, its output kept beside the session's state. Without one the plain draft is
 * stored at once. Both store through the capture's dedup and policy.lessons.max_auto_candidates cap.
 */
import path from 'node:path';
import { errorMessage } from '../errors.js';
import { startDetached } from '../io/detached.js';
import { writeInRepo } from '../io/fs.js';
import { pathInside } from '../io/inside.js';
import { packageFile } from '../io/package-root.js';
import type { Policy } from '../policy/policy.js';
import type { HookRun } from './input.js';
import { pairLog, plainDraft, type RedGreenPair } from './red-green.js';
import { readSession, sessionFile, updateSession } from './session.js';

/** Marks the session's pair as drafted, under the lock: the pair for exactly one caller, undefined for the others. */
async function claimPair(run: HookRun, sessionId: string): Promise<RedGreenPair | undefined> {
  let claimed: RedGreenPair | undefined;
  await updateSession(run.root, sessionId, {
    redgreen: (state) => {
      if (!state.pair || state.drafted) return state;
      claimed = state.pair;
      return { ...state, drafted: true };
    },
  });
  return claimed;
}

function summary(pair: RedGreenPair): string {
  return `\`${pair.kind}\` failed, then \`${pair.passed}\` passed`;
}

/** Starts `lessons capture --from-error <log>` detached; returns where its output goes. */
function captureInBackground(run: HookRun, sessionId: string, pair: RedGreenPair): string {
  const base = sessionFile(run.root, sessionId).replace(/\.json$/, '');
  const log = `${base}.red-green.log`;
  const out = pathInside(run.root, `${base}.capture.txt`);
  writeInRepo(run.root, log, pairLog(pair), { durable: false });
  startDetached(process.execPath, [packageFile('dist', 'cli', 'lessons.js'), '-C', run.root, 'capture', '--from-error', log], {
    cwd: run.root,
    env: { ...process.env, NO_COLOR: '1' },
    output: out,
  });
  return path.relative(run.root, out).split(path.sep).join('/');
}

/**
 * The note for the user when the session's pair was drafted now; '' when there was nothing to
 * draft. The plain draft is marked done only once stored (or refused): a Stop cut short by the
 * hook's time limit leaves the pair for the next Stop, and a Stop that raced it finds the draft
 * already there (the capture's dedup bumps it instead of writing a second one).
 */
export async function draftRedGreen(run: HookRun, sessionId: string | undefined, policy: Policy): Promise<string> {
  if (!sessionId) return '';
  const { redgreen } = readSession(run.root, sessionId);
  const pair = redgreen.pair;
  if (!pair || redgreen.drafted) return '';
  try {
    if (policy.review.enabled) {
      if (!(await claimPair(run, sessionId))) return '';
      const out = captureInBackground(run, sessionId, pair);
      return `lessons: ${summary(pair)}: the reviewer drafts a candidate lesson from it in the background (\`lessons list --status candidate\` shows it; its output goes to ${out})`;
    }
    const { storeDrafts } = await import('../capture/store.js');
    let outcomes: Awaited<ReturnType<typeof storeDrafts>>;
    try {
      outcomes = await storeDrafts({ cwd: run.root, drafts: [plainDraft(pair)], now: run.now });
    } finally {
      // Stored or refused: either way this pair is done. A session lock that cannot be had only means the next Stop finds the draft and bumps it.
      await claimPair(run, sessionId).catch(() => undefined);
    }
    const [outcome] = outcomes;
    if (!outcome) return '';
    const { redactedNote } = await import('../capture/redact.js');
    return outcome.action === 'created'
      ? `lessons: ${summary(pair)}: drafted ${outcome.path} (candidate; say why it failed and generalise it, then \`lessons accept ${outcome.id}\`)${redactedNote(outcome.redacted)}`
      : `lessons: ${summary(pair)}: the same lesson was drafted before: ${outcome.id} (occurrences bumped)${redactedNote(outcome.redacted)}`;
  } catch (error) {
    return `lessons: ${summary(pair)}, but no lesson was drafted: ${errorMessage(error)}`;
  }
}
