import type { Level, Severity } from '../lesson/model.js';
import { GATE_LEVELS, GATES } from './gates.js';

/**
 * The guard's gates by name, in its order, and (DEFAULT_POLICY.gates below) their default levels:
 * each gate's file in src/guard/gates/ declares them, and scripts/build-gates.mjs copies them into
 * gates.ts, because the policy sits below the guard and resolving a policy must not load it.
 */
export { GATES };
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
    /** The most one-line related entries (below the lessons that apply) one answer shows. */
    related_max: number;
    /** The most lessons the ci guard's "Lessons for this change" section lists (guard/change-section.ts). */
    change_max: number;
    receipt_max_age_minutes: number;
    trailer_window_minutes: number;
  };
  gates: Record<Gate, Record<Stage, GateLevel>>;
  capture: {
    similarity_threshold: number;
    /** A capture that bumps a lesson's occurrences past this raises its severity one step. */
    escalate_after: number;
    /** `lessons new` names existing lessons whose title is at least this similar (text model, 0..1). */
    new_similarity: number;
  };
  review: ReviewPolicy;
  report: {
    promote_similarity: number;
  };
  incident: IncidentPolicy;
  secrets: SecretsPolicy;
  quality: QualityPolicy;
  eval: EvalPolicy;
  hooks: HooksPolicy;
  sources: SourcePolicy[];
  /** Project name -> globs over repo-relative paths (projects.ts): where a monorepo's projects live. */
  projects: Record<string, string[]>;
}

/** Agent harness hooks. */
export interface HooksPolicy {
  /**
   * `deny` or `ask`: the first tool call in a session that a critical lesson matches is answered
   * with that decision and the checklist as its reason, so the model reads the lesson before the
   * call rather than after its result; the retry goes through. `off`: context only.
   */
  critical_gate: 'off' | 'deny' | 'ask';
}

/** Another repository whose lessons this one takes through git (`lessons sources update`). */
export interface SourcePolicy {
  /** Names its lessons here: `<name>:<id>`; its checkout is .lessons/sources/<name>. */
  name: string;
  /** Any URL git fetches from, or a local path relative to the repository root. */
  url: string;
  /** The branch or tag followed. */
  ref: string;
  /** The lessons tree inside the source repository; `lessons` when absent. */
  path?: string;
  /** The levels taken; every level when absent. */
  levels?: Level[];
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
  /** Regular expressions tried on each commit's subject line: a match blocks where the gate blocks. */
  subject_patterns: string[];
  /** Subjects that may resolve an incident (a conventional `fix:`): a missing lesson is only a warning. */
  warn_subject_patterns: string[];
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
  /** A regular expression (same flags) for documented placeholders: a secret it matches is not reported. */
  exclude?: string;
}

export interface SecretsPolicy {
  /** `lessons`: what is under lessons/ (and the files lessons are copied into); `change`: every text file the change touches. */
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

/** What `lessons eval` (and the guard's retrieval gate) must reach on lessons/evals.json. */
export interface EvalPolicy {
  /** Share (0..1) of the must lessons of all cases that preflight must select. */
  min_recall: number;
  /** Share (0..1) of the must-not and no-match cases in which preflight may select a lesson it must not. */
  max_false_positive_rate: number;
}

/** What a repository without a policy file, or with a partial one, gets. */
export const DEFAULT_POLICY: Policy = {
  version: 1,
  lessons: { stale_after_days: 365, max_auto_candidates: 25 },
  preflight: { quotas: { principle: 2, pattern: 3, case: 2, cases_alone: 5 }, hook_max: 3, related_max: 3, change_max: 5, receipt_max_age_minutes: 240, trailer_window_minutes: 60 },
  gates: GATE_LEVELS,
  capture: { similarity_threshold: 0.82, escalate_after: 3, new_similarity: 0.55 },
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
  incident: { subject_patterns: ['^hotfix(\\([^)]*\\))?!?:'], warn_subject_patterns: ['^fix(\\([^)]*\\))?!?:'], trailers: ['Incident'] },
  secrets: {
    scope: 'lessons',
    rules: [
      { name: 'aws-access-key-id', pattern: '\\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}\\b', min_entropy: 3, exclude: 'EXAMPLE$' },
      { name: 'github-token', pattern: '\\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\\b', min_entropy: 3 },
      { name: 'gitlab-token', pattern: '\\bgl(?:pat|rt|dt|ptt|ft|cbt|soat|imt|oas)-[0-9A-Za-z_.-]{20,255}', min_entropy: 3 },
      { name: 'slack-token', pattern: '\\bxox[abposre]-(?:\\d-)?[0-9]{8,13}-[A-Za-z0-9-]{8,255}', min_entropy: 3, exclude: '^xox[a-z]-(?:\\d-)?0+-(?:0+-){0,8}(?:0+|x+|X+)$' },
      { name: 'slack-app-token', pattern: '\\bxapp-\\d-[A-Z0-9]{1,32}-\\d{1,20}-[a-z0-9]{1,128}', flags: 'i', min_entropy: 2 },
      { name: 'slack-webhook', pattern: 'https://hooks\\.slack\\.com/(?:services|workflows|triggers)/([A-Za-z0-9+/]{20,255})', group: 1, min_entropy: 3 },
      { name: 'private-key', pattern: '-{4,5} ?BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)? ?-{4,5}\\s{0,10}(?:[A-Za-z-]{1,40}: ?[^\\n]{0,200}\\n\\s{0,10}){0,4}[A-Za-z0-9+/=]{32}', flags: 'i' },
      { name: 'google-api-key', pattern: '\\bAIza[0-9A-Za-z_-]{35}\\b', min_entropy: 3 },
      { name: 'npm-token', pattern: '\\bnpm_[A-Za-z0-9]{36}\\b', min_entropy: 3 },
      { name: 'stripe-secret-key', pattern: '\\b[rs]k_live_[0-9A-Za-z]{20,255}\\b', min_entropy: 3 },
      { name: 'anthropic-api-key', pattern: '\\bsk-ant-(?:api|admin|oat)\\d\\d-[A-Za-z0-9_-]{32,512}', min_entropy: 3 },
      { name: 'openai-api-key', pattern: '\\bsk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{32,512}', min_entropy: 3 },
      { name: 'sendgrid-api-key', pattern: '\\bSG\\.[A-Za-z0-9_-]{16,32}\\.[A-Za-z0-9_-]{16,64}', min_entropy: 3 },
      { name: 'twilio-api-key', pattern: '\\bSK[0-9a-fA-F]{32}\\b', min_entropy: 3 },
      { name: 'vault-token', pattern: '\\bhv[sb]\\.[A-Za-z0-9_-]{24,512}', min_entropy: 3 },
      { name: 'telegram-bot-token', pattern: '(?<![\\w:])(\\d{5,16}:A[A-Za-z0-9_-]{34})(?![\\w-])', group: 1, min_entropy: 3 },
      { name: 'azure-storage-key', pattern: 'AccountKey=([A-Za-z0-9+/]{40,512}={0,2})', group: 1, min_entropy: 3.5 },
      { name: 'azure-ad-client-secret', pattern: '(?:^|[\\\\\'"`\\s>=:(,)])([a-zA-Z0-9_~.]{3}\\dQ~[a-zA-Z0-9_~.-]{31,34})(?:$|[\\\\\'"`\\s<),])', group: 1, min_entropy: 3 },
      { name: 'pypi-token', pattern: '\\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,1024}', min_entropy: 3 },
      { name: 'shopify-token', pattern: '\\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\\b', min_entropy: 3 },
      { name: 'databricks-token', pattern: '\\bdapi[a-f0-9]{32}(?:-\\d)?\\b', min_entropy: 3 },
      { name: 'jwt', pattern: '(?<![A-Za-z0-9_-])ey[A-Za-z0-9_-]{15,4096}\\.ey[A-Za-z0-9_-]{15,4096}\\.[A-Za-z0-9_-]{10,1024}', min_entropy: 3, exclude: '\\.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ\\.' },
      { name: 'basic-auth-header', pattern: '\\bauthorization["\']?\\s{0,5}[:=]\\s{0,5}["\']?basic\\s{1,5}([A-Za-z0-9+/]{12,1024}={0,2})(?![A-Za-z0-9+/=])', flags: 'i', group: 1, min_entropy: 3 },
      { name: 'database-url-password', pattern: '\\b(?:postgres(?:ql)?|mysql|mariadb|mongodb(?:\\+srv)?|rediss?|amqps?|mssql|sqlserver|jdbc:[a-z]+)://[^\\s:/@]{0,128}:([^\\s/@]{6,256})@', group: 1, min_entropy: 2.5, exclude: '^(?:\\$\\{?[A-Za-z_][\\w]*\\}?|\\$\\([^)]*\\)|<[^>]*>|%[A-Za-z_]+%|\\{\\{[^}]*\\}\\}|(?:your|my|example|sample|dummy|fake|placeholder|changeme|password|passw0rd|secret|pass|postgres|root|admin|guest|user)[-_\\w]*|x+|\\*+)$' },
      { name: 'password-assignment', pattern: '(?:passw(?:or)?d|passphrase|\\bpwd)(?![_-]?(?:name|names|id|ids|url|uri|file|path|type|method|endpoint|arn|ref|header|ttl|length|env|rotation|policy|hash|reset|min|max)\\b)[\\w-]{0,40}["\']?\\s{0,10}[:=]\\s{0,10}(["\']?)((?=[^\\s"\'`]{0,128}[^\\w\\s"\'`])(?=[^\\s"\'`]{0,128}[A-Za-z])[^\\s"\'`<>$]{8,128})\\1(?=[\\s"\'`,;]|$)', flags: 'i', group: 2, min_entropy: 3, exclude: '^(?:[/~.]|\\*+$|x+$|[a-z]+(?:-[a-z]+){1,16}[!.?]?$)|://|^(?:your|my|example|sample|dummy|fake|placeholder|replace|changeme)[-_]' },
      { name: 'generic-secret-assignment', pattern: '(?:api[_-]?key|secret|token|passw(?:or)?d|access[_-]?key|auth)(?![_-]?(?:name|names|id|ids|url|uri|file|path|type|method|endpoint|arn|ref|header|ttl|length|env|rotation)\\b)[\\w-]{0,40}["\']?\\s{0,10}[:=]\\s{0,10}["\']?((?=[\\w+/=.~-]{0,128}\\d)(?=[\\w+/=.~-]{0,128}[A-Za-z])[\\w+/=.~-]{16,128})', flags: 'i', group: 1, min_entropy: 3.5, exclude: '^[a-z0-9]{1,12}(?:[-_.][a-z0-9]{1,12}){2,}$|^(?:x+|\\*+)$|EXAMPLE|^(?:your|my|example|sample|dummy|fake|placeholder|replace)[-_]' },
    ],
    allowlist: [],
  },
  quality: { commands: [], timeout_seconds: 600 },
  eval: { min_recall: 1, max_false_positive_rate: 0 },
  hooks: { critical_gate: 'off' },
  sources: [],
  projects: {},
};

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
