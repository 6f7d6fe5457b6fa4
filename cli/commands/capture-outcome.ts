import type { CaptureOutcome } from '../../src/capture/store.js';
import { redactedNote } from '../../src/capture/redact.js';

/** `; severity medium -> high (...)` when the bump made the lesson louder. */
export function escalation(outcome: CaptureOutcome): string {
  const up = outcome.escalated;
  return up ? `; severity ${up.from} -> ${up.to}: it recurred ${outcome.occurrences} times, past policy.capture.escalate_after (${up.after})` : '';
}

/** `; secrets redacted before writing (github-token)` when capture replaced any. */
export function redaction(outcome: CaptureOutcome): string {
  return redactedNote(outcome.redacted);
}
