import type { CaptureOutcome } from '../../src/capture/store.js';

/** `; severity medium -> high (...)` when the bump made the lesson louder. */
export function escalation(outcome: CaptureOutcome): string {
  const up = outcome.escalated;
  return up ? `; severity ${up.from} -> ${up.to}: it recurred ${outcome.occurrences} times, past policy.capture.escalate_after (${up.after})` : '';
}
