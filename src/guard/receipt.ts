/** How the guard judges the preflight receipt (whose format belongs to `lessons preflight`). */
import { RECEIPT_FILE, type PreflightReceipt } from '../preflight/receipt.js';

export { RECEIPT_FILE };
export type Receipt = PreflightReceipt;

export type ReceiptState =
  | { state: 'missing' }
  | { state: 'invalid'; reason: string }
  | { state: 'stale'; receipt: Receipt; ageMinutes: number }
  | { state: 'fresh'; receipt: Receipt; ageMinutes: number };

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

/** Reads a receipt's text and judges it against the clock; pure. */
export function judgeReceipt(text: string | undefined, now: Date, maxAgeMinutes: number): ReceiptState {
  if (text === undefined) return { state: 'missing' };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { state: 'invalid', reason: 'it is not valid JSON' };
  }
  const receipt = data as Partial<Receipt> | null;
  if (receipt === null || typeof receipt !== 'object' || receipt.version !== 1) return { state: 'invalid', reason: 'it has no `"version": 1`' };
  if (typeof receipt.task !== 'string' || !isStringList(receipt.selected)) return { state: 'invalid', reason: 'it lacks `task` or `selected`' };
  const created = typeof receipt.created_at === 'string' ? Date.parse(receipt.created_at) : Number.NaN;
  if (Number.isNaN(created)) return { state: 'invalid', reason: '`created_at` is not an ISO time' };
  const ageMinutes = Math.max(0, Math.floor((now.getTime() - created) / 60_000));
  const full = receipt as Receipt;
  return ageMinutes <= maxAgeMinutes ? { state: 'fresh', receipt: full, ageMinutes } : { state: 'stale', receipt: full, ageMinutes };
}

/** The value of the `Lessons-Preflight:` trailer a receipt stands for. */
export function preflightTrailerValue(receipt: Receipt): string {
  return receipt.selected.length === 0 ? 'none' : receipt.selected.join(', ');
}
