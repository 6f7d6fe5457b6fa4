/** The answer that changes nothing, per harness and event: what a disabled, failing or late hook prints. */
export const HARNESSES = ['claude', 'codex', 'cursor'] as const;
export type Harness = (typeof HARNESSES)[number];

export function isHarness(value: string | undefined): value is Harness {
  return (HARNESSES as readonly string[]).includes(value ?? '');
}

/**
 * Claude Code and Codex: empty stdout with exit 0 is success with nothing added. Cursor reads a
 * JSON answer; its permission events get the allowing one.
 */
export function neutralAnswer(harness: string | undefined, event: string | undefined): string {
  if (harness !== 'cursor') return '';
  switch (event) {
    case 'beforeShellExecution':
    case 'beforeMCPExecution':
    case 'beforeReadFile':
      return '{"permission":"allow"}\n';
    case 'beforeSubmitPrompt':
      return '{"continue":true}\n';
    default:
      return '{}\n';
  }
}
