import { defaultLevels, type GateCheck, type GateDeclaration } from './gate.js';

/** The policy's quality commands (gate-input.ts ran them): each one that failed. */
export const qualityGate: GateCheck = (input) =>
  (input.quality ?? [])
    .filter((outcome) => !outcome.ok)
    .map((outcome) => ({
      rule: `quality-${outcome.name}`,
      severity: 'error' as const,
      message: `quality command \`${outcome.name}\` (${outcome.argv.join(' ')}) failed: ${outcome.detail}; fix it and run the guard again`,
    }));

export const quality: GateDeclaration = { name: 'quality', levels: defaultLevels('off', 'off', 'warn'), check: qualityGate };
