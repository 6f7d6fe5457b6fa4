import { isoTimestamp } from '../util/dates.js';
import type { PreflightInput } from './query.js';

/** .lessons/preflight/last.json: what was asked (the PreflightInput) and what was shown. */
export interface PreflightReceipt extends PreflightInput {
  version: 1;
  /** Ids of the lessons shown in full (the apply tier), in rank order: the evidence a commit trailer counts. */
  selected: string[];
  /** Ids of the related lessons listed (one line each), in rank order; missing in receipts of older versions. */
  related?: string[];
  /** sha256 hex of lessons/index.json, or of the scanned tree's serialized index when it was missing or stale. */
  index_digest: string;
  /** ISO-8601 time of the run. */
  created_at: string;
}

export function makeReceipt(input: PreflightInput, selected: readonly string[], related: readonly string[], indexDigest: string, now: Date): PreflightReceipt {
  return {
    version: 1,
    task: input.task,
    paths: [...input.paths],
    tool: input.tool,
    command: input.command,
    project: input.project,
    selected: [...selected],
    related: [...related],
    index_digest: indexDigest,
    created_at: isoTimestamp(now),
  };
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

const nullableString = (value: unknown): boolean => value === null || typeof value === 'string';

/** A receipt's text checked against the format; the reason says what is wrong with it. */
export function parseReceipt(text: string): { receipt: PreflightReceipt } | { reason: string } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { reason: 'it is not valid JSON' };
  }
  const r = data as Record<string, unknown> | null;
  if (r === null || typeof r !== 'object' || r.version !== 1) return { reason: 'it has no `"version": 1`' };
  if (typeof r.task !== 'string' || !isStringArray(r.selected)) return { reason: 'it lacks `task` or `selected`' };
  if (r.related !== undefined && !isStringArray(r.related)) return { reason: '`related` is not a list of ids' };
  if (typeof r.created_at !== 'string' || Number.isNaN(Date.parse(r.created_at))) return { reason: '`created_at` is not an ISO time' };
  if (!isStringArray(r.paths) || !nullableString(r.tool) || !nullableString(r.command) || !nullableString(r.project) || typeof r.index_digest !== 'string') {
    return { reason: 'it lacks `paths`, `tool`, `command`, `project` or `index_digest`' };
  }
  return { receipt: r as unknown as PreflightReceipt };
}

/** A receipt's text as a receipt, or undefined when there is none or it is not a valid receipt. */
export function receiptFromText(text: string | undefined): PreflightReceipt | undefined {
  if (text === undefined) return undefined;
  const parsed = parseReceipt(text);
  return 'receipt' in parsed ? parsed.receipt : undefined;
}
