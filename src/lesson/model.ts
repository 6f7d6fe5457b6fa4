import path from 'node:path';
import { LESSONS_DIR } from '../io/repo.js';

/** The lesson as the rest of the code sees it: frontmatter with defaults applied, plus its body. */

export const LEVELS = ['case', 'pattern', 'principle'] as const;
export const STATUSES = ['candidate', 'validated', 'canonical', 'retired'] as const;
export const SEVERITIES = ['low', 'medium', 'high', 'critical'] as const;
export const SOURCES = ['curated', 'auto'] as const;
/** What shape of knowledge a lesson carries (process knowledge). */
export const KINDS = ['checklist', 'pattern', 'warning', 'requirement'] as const;
/** What a lesson was learned from (insight extraction). */
export const INSIGHTS = ['critical_error', 'best_practice', 'domain_knowledge'] as const;

export type Level = (typeof LEVELS)[number];
export type Status = (typeof STATUSES)[number];
export type Severity = (typeof SEVERITIES)[number];
export type Source = (typeof SOURCES)[number];
export type Kind = (typeof KINDS)[number];
export type Insight = (typeof INSIGHTS)[number];

/** Folder under `lessons/` that holds each level. */
export const LEVEL_FOLDERS: Record<Level, string> = {
  case: 'cases',
  pattern: 'patterns',
  principle: 'principles',
};

export function levelOfFolder(folder: string): Level | undefined {
  return LEVELS.find((level) => LEVEL_FOLDERS[level] === folder);
}

export function levelDir(root: string, level: Level): string {
  return path.join(root, LESSONS_DIR, LEVEL_FOLDERS[level]);
}

export function lessonDirs(root: string): { level: Level; dir: string }[] {
  return LEVELS.map((level) => ({ level, dir: levelDir(root, level) }));
}

export interface Application {
  context: string;
  ref: string;
  validated_at: string;
}

export interface Triggers {
  tools: string[];
  paths: string[];
  commands: string[];
  keywords: string[];
}

export interface LessonMeta {
  id: string;
  title: string;
  level: Level;
  status: Status;
  severity: Severity;
  tags: string[];
  confidence: number;
  transferability: number;
  source: Source;
  occurrences: number;
  created_at: string | null;
  last_seen: string | null;
  last_validated_at: string | null;
  /** The frontmatter summary, or null when the file has none (the index derives one). */
  summary: string | null;
  project: string | null;
  kind: Kind | null;
  insight: Insight | null;
  source_case_ids: string[];
  applications: Application[];
  source_pattern_ids: string[];
  duplicate_of: string | null;
  superseded_by: string | null;
  retired_reason: string | null;
  /** The patterns and principles this lesson was promoted into: the back-link of their source ids. */
  promoted_to: string[];
  triggers: Triggers;
}

export interface Lesson extends LessonMeta {
  /** Frontmatter keys the format does not know; kept so a rewrite loses nothing. */
  extra: Record<string, unknown>;
  /** Markdown after the frontmatter, with LF line endings. */
  body: string;
}

/** Every known frontmatter key, in the order the serializer writes them. */
export const FRONTMATTER_KEYS = [
  'id',
  'title',
  'level',
  'status',
  'severity',
  'tags',
  'confidence',
  'transferability',
  'source',
  'occurrences',
  'created_at',
  'last_seen',
  'last_validated_at',
  'summary',
  'project',
  'kind',
  'insight',
  'source_case_ids',
  'applications',
  'source_pattern_ids',
  'duplicate_of',
  'superseded_by',
  'retired_reason',
  'promoted_to',
  'triggers',
] as const satisfies readonly (keyof LessonMeta)[];

export const TRIGGER_KEYS = ['tools', 'paths', 'commands', 'keywords'] as const satisfies readonly (keyof Triggers)[];

export const DEFAULTS = {
  severity: 'medium',
  confidence: 3,
  transferability: 3,
  source: 'curated',
  occurrences: 1,
} as const;

export const CHECKLIST_HEADING = 'Prevention Checklist';

/** Kebab-case, starting with a letter or digit: never a path, never upper case or spaces. */
export const ID_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const ID_MAX_LENGTH = 100;

export function emptyTriggers(): Triggers {
  return { tools: [], paths: [], commands: [], keywords: [] };
}

/**
 * A new candidate lesson dated `today`: every field at its default, then `fields`. The one
 * place `lessons new`, capture and promotion build a lesson from nothing.
 */
export function candidateLesson(fields: Pick<Lesson, 'id' | 'title' | 'level'> & Partial<Lesson>, today: string): Lesson {
  return {
    status: 'candidate',
    severity: DEFAULTS.severity,
    tags: [],
    confidence: DEFAULTS.confidence,
    transferability: DEFAULTS.transferability,
    source: DEFAULTS.source,
    occurrences: DEFAULTS.occurrences,
    created_at: today,
    last_seen: today,
    last_validated_at: null,
    summary: null,
    project: null,
    kind: null,
    insight: null,
    source_case_ids: [],
    applications: [],
    source_pattern_ids: [],
    duplicate_of: null,
    superseded_by: null,
    retired_reason: null,
    promoted_to: [],
    triggers: emptyTriggers(),
    extra: {},
    body: '',
    ...fields,
  };
}
