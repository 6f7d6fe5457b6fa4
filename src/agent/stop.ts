/**
 * What the Stop moment needs, as pure functions: the assistant's text from a Claude Code
 * transcript (JSONL, one message per line) and the checklist items of the lessons shown in the
 * session that the final answer does not visibly address.
 */
import type { IndexEntry } from '../index/build.js';
import { STOPWORDS } from '../util/words.js';

/** Text of one message's `content`: a string, or the `text` of its text parts. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => (part && typeof part === 'object' && (part as { type?: unknown }).type === 'text' ? String((part as { text?: unknown }).text ?? '') : ''))
    .filter((text) => text !== '')
    .join('\n');
}

/**
 * The assistant messages of a transcript, in order. Lines that are not JSON or not assistant
 * messages are skipped: the transcript is written while the session runs and its last line may be partial.
 */
export function assistantTexts(jsonl: string): string[] {
  const texts: string[] = [];
  for (const line of jsonl.split('\n')) {
    // Long sessions write megabytes of tool output: only assistant lines are worth parsing.
    if (!line.includes('"assistant"')) continue;
    let record: { type?: unknown; message?: { role?: unknown; content?: unknown } };
    try {
      record = JSON.parse(line) as typeof record;
    } catch {
      continue;
    }
    const message = record?.message;
    if (!message || typeof message !== 'object') continue;
    if (record.type !== 'assistant' && message.role !== 'assistant') continue;
    const text = contentText(message.content);
    if (text.trim() !== '') texts.push(text);
  }
  return texts;
}

export interface UncoveredItem {
  id: string;
  item: string;
}

/**
 * An item is addressed when the answer names at least two thirds of its content words (and at
 * least one): a cheap, deterministic test for "visibly", not a judgement of truth.
 */
export function isAddressed(item: string, answerStems: ReadonlySet<string>): boolean {
  const words = [...stems(item)];
  if (words.length === 0) return true;
  const hits = words.filter((word) => answerStems.has(word)).length;
  return hits >= Math.max(1, Math.ceil((words.length * 2) / 3));
}

export function uncoveredItems(shown: readonly IndexEntry[], finalAnswer: string): UncoveredItem[] {
  const answer = stems(finalAnswer);
  const result: UncoveredItem[] = [];
  for (const entry of shown) {
    for (const item of entry.checklist) if (!isAddressed(item, answer)) result.push({ id: entry.id, item });
  }
  return result;
}

export const MAX_NOTE_ITEMS = 10;

export function formatUncovered(items: readonly UncoveredItem[]): string {
  if (items.length === 0) return '';
  const lines = [`lessons: ${items.length} Prevention Checklist item${items.length === 1 ? '' : 's'} of lessons shown in this session ${items.length === 1 ? 'is' : 'are'} not visibly addressed in the final answer:`];
  for (const { id, item } of items.slice(0, MAX_NOTE_ITEMS)) lines.push(`- ${id}: ${item}`);
  if (items.length > MAX_NOTE_ITEMS) lines.push(`- ... and ${items.length - MAX_NOTE_ITEMS} more`);
  return lines.join('\n');
}

/** Content words of a text by a crude stem (so `releasing` meets `release`). */
export function stems(text: string): Set<string> {
  const result = new Set<string>();
  for (const word of text.toLowerCase().split(/[^a-z0-9]+/)) {
    if (word.length < 3 || STOPWORDS.has(word)) continue;
    result.add(word.length > 6 ? word.slice(0, 6) : word.replace(/s$/, ''));
  }
  return result;
}
