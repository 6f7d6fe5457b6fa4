/**
 * Every guard gate, in the guard's order: the gates run, the report's `levels` and the step
 * summary's table follow this list (findings themselves sort by gate name). Adding a gate is a
 * file in this folder and a line here; then `node scripts/build-gates.mjs` writes its name and
 * levels into the policy module (src/policy/gates.ts), the policy schema and the shipped policy
 * file (test/unit/gate-registry.test.ts fails while they differ).
 */
import type { GateDeclaration } from './gate.js';
import { incidentLesson } from './incident-lesson.js';
import { indexFresh } from './index-fresh.js';
import { policy } from './policy.js';
import { preflightEvidence } from './preflight-evidence.js';
import { promotion } from './promotion.js';
import { quality } from './quality.js';
import { retrieval } from './retrieval.js';
import { schema } from './schema.js';
import { secrets } from './secrets.js';

export const GATE_REGISTRY: readonly GateDeclaration[] = [schema, indexFresh, preflightEvidence, incidentLesson, promotion, secrets, quality, retrieval, policy];
