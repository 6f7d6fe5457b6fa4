/** How the guard judges the preflight receipt (whose format belongs to `lessons preflight`). */
import { parseReceipt, type PreflightReceipt } from '../preflight/receipt.js';
export type Receipt = PreflightReceipt;

export type ReceiptState =
  | { state: 'missing' }
  | { state: 'invalid'; reason: string }
  | { state: 'stale'; receipt: Receipt; ageMinutes: number }
  | { state: 'fresh'; receipt: Receipt; ageMinutes: number };

/** Reads a receipt's text and judges it against the clock; pure. */
export function judgeReceipt(text: string | undefined, now: Date, maxAgeMinutes: number): ReceiptState {
  if (text === undefined) return { state: 'missing' };
  const parsed = parseReceipt(text);
  if ('reason' in parsed) return { state: 'invalid', reason: parsed.reason };
  const { receipt } = parsed;
  const ageMinutes = Math.max(0, Math.floor((now.getTime() - Date.parse(receipt.created_at)) / 60_000));
  return ageMinutes <= maxAgeMinutes ? { state: 'fresh', receipt, ageMinutes } : { state: 'stale', receipt, ageMinutes };
}

/** The value of the `Lessons-Preflight:` trailer a receipt stands for. */
export function preflightTrailerValue(receipt: Receipt): string {
  return receipt.selected.length === 0 ? 'none' : receipt.selected.join(', ');
}
