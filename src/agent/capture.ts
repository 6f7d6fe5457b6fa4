/** Capturing `[LESSON]` blocks from agent text as candidates, once per session and block. */
import { extractDrafts } from '../capture/blocks.js';
import { storeDrafts, type CaptureOutcome } from '../capture/store.js';
import { redactedNote } from '../capture/redact.js';
import { errorMessage } from '../errors.js';
import { sha256 } from '../util/digest.js';
import type { HookRun } from './input.js';
import { readSession, updateSession } from './session.js';

export interface Captured {
  outcomes: CaptureOutcome[];
  /** Why nothing was stored, when the store refused (the auto-candidate cap, a broken tree). */
  refused?: string;
}

/** A block's identity within a session: the same block seen again in a later turn is not new. */
function blockDigest(draft: { title: string; body: string }): string {
  return sha256(`${draft.title}\n${draft.body}`.toLowerCase().replace(/\s+/g, ' ')).slice(0, 16);
}

/**
 * The blocks of `text` not captured earlier in this session, stored through the lifecycle's
 * capture (deduplicated: a near-duplicate bumps the existing lesson). Never throws: a hook
 * must not fail the harness.
 */
export async function captureBlocks(run: HookRun, sessionId: string | undefined, text: string): Promise<Captured> {
  const captured = new Set(sessionId ? readSession(run.root, sessionId).captured : []);
  const fresh = extractDrafts(text).map((draft) => ({ draft, digest: blockDigest(draft) })).filter(({ digest }) => !captured.has(digest));
  if (fresh.length === 0) return { outcomes: [] };
  try {
    const outcomes = await storeDrafts({ cwd: run.root, drafts: fresh.map(({ draft }) => draft), now: run.now });
    if (sessionId) await updateSession(run.root, sessionId, { captured: fresh.map(({ digest }) => digest) });
    return { outcomes };
  } catch (error) {
    return { outcomes: [], refused: errorMessage(error) };
  }
}

export function capturedNote(captured: Captured): string {
  if (captured.refused) return `lessons: the [LESSON] blocks were not captured: ${captured.refused}`;
  const lines = captured.outcomes.map((outcome) =>
    `${outcome.action === 'created' ? `captured ${outcome.path}` : `seen again: ${outcome.id} (occurrences bumped)`}${redactedNote(outcome.redacted)}`,
  );
  return lines.length === 0 ? '' : `lessons: ${lines.join('; ')}`;
}
