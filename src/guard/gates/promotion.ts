import { transitionFindings } from '../../lesson/transitions.js';
import type { Snapshot } from '../snapshot.js';
import { defaultLevels, type GateCheck, type GateDeclaration } from './gate.js';
import { fromLint } from './lint-issues.js';

/** Level and status changes between base and head follow the lifecycle rules. */
export const promotionGate: GateCheck = (input) => {
  if (input.checked?.transitions) return fromLint(input.checked.transitions);
  const side = (snapshot: Snapshot | undefined) => (snapshot?.tree.lessons ?? []).map(({ lesson, path }) => ({ lesson, path }));
  return fromLint(transitionFindings(side(input.base), side(input.head)));
};

export const promotion: GateDeclaration = { name: 'promotion', levels: defaultLevels('block', 'block', 'block'), check: promotionGate };
