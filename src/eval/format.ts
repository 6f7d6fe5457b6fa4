import type { Placement } from '../preflight/placement.js';
import type { CaseResult } from './run.js';

const DROPPED: Record<NonNullable<Placement['dropped']>, string> = {
  'not-ranked': 'not ranked: no word of the task reached it',
  floor: 'below the relevance floor',
  quota: "past its level's quota (better-ranked lessons of its level filled it)",
  'hook-max': "past the policy's hook_max",
};

/** Where a missed lesson stood and why preflight dropped it, in one phrase. */
export function describePlacement(placement: Placement, mode: CaseResult['mode']): string {
  if (placement.rank === null) return mode === 'hook' ? 'not ranked: none of its triggers matched' : DROPPED['not-ranked'];
  const place = `ranked ${placement.rank} of ${placement.ranked} (score ${placement.score})`;
  return placement.dropped === null ? place : `${place}, ${DROPPED[placement.dropped]}`;
}
