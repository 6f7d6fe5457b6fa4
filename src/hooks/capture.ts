/** Capturing `[LESSON]` blocks from agent text as candidates, once per session and block. */
import type { IndexEntry } from '../index/build.js';
import { extractDrafts } from './blocks.js';
import type { HookRun } from './claude.js';
import { readSession, updateSession } from './session.js';
// REPLACE at merge: storeDrafts from src/capture/store.ts.
import { storeDraftsLocal, type StoredDraft } from './store-drafts-local.js';

export function captureBlocks(run: HookRun, sessionId: string | undefined, text: string, entries: readonly IndexEntry[]): StoredDraft[] {
  const captured = new Set(sessionId ? readSession(run.root, sessionId).captured : []);
  const drafts = extractDrafts(text).filter((draft) => !captured.has(draft.digest));
  if (drafts.length === 0) return [];
  const knownTitles = new Map(entries.map((entry) => [entry.title.toLowerCase(), entry.path]));
  const stored = storeDraftsLocal({ root: run.root, drafts, now: run.now, knownTitles });
  if (sessionId) updateSession(run.root, sessionId, { captured: drafts.map((draft) => draft.digest) });
  return stored;
}

export function capturedNote(stored: readonly StoredDraft[]): string {
  const written = stored.filter((item) => item.outcome === 'written');
  if (written.length === 0) return '';
  return `lessons: captured ${written.length} candidate lesson${written.length === 1 ? '' : 's'}: ${written.map((item) => item.path).join(', ')}`;
}
