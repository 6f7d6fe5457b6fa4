/**
 * The agent harnesses lessons speaks to, listed once: `lessons hook`, `hooks install`, `doctor`
 * and `help hook` read this list. Adding one is a folder beside claude/ with its declaration,
 * and a line here.
 */
import { CLAUDE } from './claude/declaration.js';
import { CODEX } from './codex/declaration.js';
import { CURSOR } from './cursor/declaration.js';
import { GEMINI } from './gemini/declaration.js';
import type { HarnessDeclaration } from './declaration.js';

export const HARNESSES = [CLAUDE, CODEX, CURSOR, GEMINI] as const satisfies readonly HarnessDeclaration[];
export type Harness = (typeof HARNESSES)[number]['name'];
export const HARNESS_NAMES: readonly Harness[] = HARNESSES.map((harness) => harness.name);

export function isHarness(value: string | undefined): value is Harness {
  return (HARNESS_NAMES as readonly string[]).includes(value ?? '');
}

export function harnessNamed(name: Harness): HarnessDeclaration {
  return HARNESSES.find((harness) => harness.name === name)!;
}

/** The answer that changes nothing, for a harness and event: what a disabled, failing or late hook prints. */
export function neutralAnswer(harness: string | undefined, event: string | undefined): string {
  if (!isHarness(harness)) return '';
  const { events, otherNeutral } = harnessNamed(harness);
  return event !== undefined && Object.hasOwn(events, event) ? events[event]! : otherNeutral;
}
