import fs from 'node:fs';
import path from 'node:path';
import { LessonsError } from '../errors.js';
import { POLICY_FILE } from '../io/repo.js';
import type { Level, Severity } from '../lesson/model.js';

export const GATES = ['schema', 'index-fresh', 'preflight-evidence', 'incident-lesson', 'promotion', 'secrets', 'quality'] as const;
export const STAGES = ['pre-commit', 'pre-push', 'ci', 'final'] as const;
export type Gate = (typeof GATES)[number];
export type Stage = (typeof STAGES)[number];
export type GateLevel = 'off' | 'warn' | 'block';

export interface Policy {
  version: 1;
  lessons: { stale_after_days: number; max_auto_candidates: number };
  preflight: {
    /** The most lessons of each level one answer shows; `case` counts cases under a shown pattern or principle, `cases_alone` cases when none is shown. */
    quotas: Record<Level, number> & { cases_alone: number };
    hook_max: number;
    receipt_max_age_minutes: number;
  };
  gates: Record<Gate, Record<Stage, GateLevel>>;
  capture: { similarity_threshold: number };
  review: ReviewPolicy;
  report: { promote_similarity: number };
  incident: IncidentPolicy;
  secrets: SecretsPolicy;
  quality: QualityPolicy;
}

/** The advisory reviewer: a command run without a shell, the prompt on its stdin. */
export interface ReviewPolicy {
  /** Whether `lessons guard --stage final` runs the semantic lane. `lessons review` runs regardless. */
  enabled: boolean;
  /** argv; `{schema}`, `{output}` and `{root}` are replaced by paths. */
  command: string[];
  timeout_seconds: number;
  max_output_bytes: number;
  max_prompt_bytes: number;
  instructions: string;
  /** Severities of reviewer findings that make `lessons review` exit 1. */
  block_on: Severity[];
  /** Below this confidence (0..1) `lessons capture --from-error` writes nothing. */
  min_confidence: number;
}

/** What marks a commit as resolving an incident (the incident-lesson gate). */
export interface IncidentPolicy {
  /** Regular expressions tried on each commit's subject line. */
  subject_patterns: string[];
  /** Trailer keys whose presence marks an incident (`Incident: INC-42`). */
  trailers: string[];
}

export interface SecretRule {
  name: string;
  /** A JavaScript regular expression; the whole match (or `group`) is the secret. */
  pattern: string;
  flags?: string;
  group?: number;
  /** Shannon entropy (bits per character) the secret must reach, for generic rules. */
  min_entropy?: number;
}

export interface SecretsPolicy {
  /** `lessons`: lesson files only; `change`: every text file the change touches. */
  scope: 'lessons' | 'change';
  rules: SecretRule[];
  /** Fingerprints (`sha256:` of rule name, NUL, match) of matches known to be harmless. */
  allowlist: string[];
}

export interface QualityCommand {
  name: string;
  /** argv, run without a shell in the repository root. */
  run: string[];
}

export interface QualityPolicy {
  commands: QualityCommand[];
  timeout_seconds: number;
}

const gate = (preCommit: GateLevel, prePush: GateLevel, ci: GateLevel): Record<Stage, GateLevel> => ({
  'pre-commit': preCommit,
  'pre-push': prePush,
  ci,
  final: 'warn',
});

/** What a repository without a policy file, or with a partial one, gets. */
export const DEFAULT_POLICY: Policy = {
  version: 1,
  lessons: { stale_after_days: 365, max_auto_candidates: 25 },
  preflight: { quotas: { principle: 2, pattern: 3, case: 2, cases_alone: 5 }, hook_max: 3, receipt_max_age_minutes: 240 },
  gates: {
    schema: gate('block', 'block', 'block'),
    'index-fresh': gate('block', 'block', 'block'),
    'preflight-evidence': gate('warn', 'warn', 'warn'),
    'incident-lesson': gate('off', 'warn', 'block'),
    promotion: gate('block', 'block', 'block'),
    secrets: gate('block', 'block', 'block'),
    quality: gate('off', 'off', 'warn'),
  },
  capture: { similarity_threshold: 0.82 },
  review: {
    enabled: false,
    command: [
      'codex',
      'exec',
      '--sandbox',
      'read-only',
      '--skip-git-repo-check',
      '--ephemeral',
      '--color',
      'never',
      '--output-schema',
      '{schema}',
      '--output-last-message',
      '{output}',
      '-',
    ],
    timeout_seconds: 600,
    max_output_bytes: 1_048_576,
    max_prompt_bytes: 200_000,
    instructions:
      'Review the change against the lessons below. Report only concrete problems the diff shows: a checklist item it skips, a mistake a lesson describes that it repeats. Quote the evidence. Say nothing about style. Return no findings when the change is fine.',
    block_on: [],
    min_confidence: 0.6,
  },
  report: { promote_similarity: 0.35 },
  incident: { subject_patterns: ['^(fix|hotfix)(\\([^)]*\\))?!?:'], trailers: ['Incident'] },
  secrets: {
    scope: 'lessons',
    rules: [
      { name: 'aws-access-key-id', pattern: '\\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\\b' },
      { name: 'github-token', pattern: '\\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\\b' },
      { name: 'slack-token', pattern: '\\bxox[abposr]-[A-Za-z0-9-]{10,}' },
      { name: 'slack-webhook', pattern: 'https://hooks\\.slack\\.com/services/[A-Za-z0-9/]{20,}' },
      { name: 'private-key', pattern: '-----BEGIN[ A-Z0-9]*PRIVATE KEY( BLOCK)?-----' },
      { name: 'google-api-key', pattern: '\\bAIza[0-9A-Za-z_-]{35}\\b' },
      { name: 'npm-token', pattern: '\\bnpm_[A-Za-z0-9]{36}\\b' },
      { name: 'stripe-secret-key', pattern: '\\b[rs]k_live_[0-9A-Za-z]{20,}\\b' },
      {
        name: 'generic-secret-assignment',
        pattern: '(?:api[_-]?key|secret|token|passw(?:or)?d|access[_-]?key|auth)[\\w-]*["\']?\\s*[:=]\\s*["\']?((?=[\\w+/=-]*\\d)(?=[\\w+/=-]*[A-Za-z])[\\w+/=-]{20,})',
        flags: 'i',
        group: 1,
        min_entropy: 3.5,
      },
    ],
    allowlist: [],
  },
  quality: { commands: [], timeout_seconds: 600 },
};

export interface RawPolicy {
  path: string;
  data: unknown;
  exists: boolean;
}

/** Reads policy/workflow-policy.json as JSON, without judging it. */
export function readPolicyFile(root: string): RawPolicy {
  const file = path.join(root, POLICY_FILE);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { path: POLICY_FILE, data: {}, exists: false };
    throw new LessonsError('INVALID_POLICY', `cannot read ${POLICY_FILE}: ${(error as Error).message}`);
  }
  try {
    return { path: POLICY_FILE, data: JSON.parse(text) as unknown, exists: true };
  } catch (error) {
    throw new LessonsError('INVALID_POLICY', `${POLICY_FILE} is not valid JSON: ${(error as Error).message}; fix the file or restore it with \`git checkout ${POLICY_FILE}\``);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function merge<T>(defaults: T, value: unknown): T {
  if (!isRecord(defaults) || !isRecord(value)) return (value === undefined ? defaults : value) as T;
  const result: Record<string, unknown> = { ...defaults };
  for (const [key, child] of Object.entries(value)) result[key] = merge((defaults as Record<string, unknown>)[key], child);
  return result as T;
}

/** The policy with defaults for every field the file leaves out. Assumes the file was validated where it matters. */
export function resolvePolicy(data: unknown): Policy {
  const resolved = merge(DEFAULT_POLICY, isRecord(data) ? data : {});
  const { $schema: _schema, ...rest } = resolved as Policy & { $schema?: string };
  return rest;
}
