import type { Insight, Kind, Level, Severity, Status } from '../lesson/model.js';
import type { RerankOutcome } from './rerank.js';

/** One lesson as preflight shows it; also the shape of `selected[]` in --json. */
export interface SelectedLesson {
  id: string;
  level: Level;
  status: Status;
  severity: Severity;
  title: string;
  path: string;
  score: number;
  reasons: string[];
  checklist: string[];
  /** Always set by preflight (null when the lesson declares none); other callers may leave them out. */
  kind?: Kind | null;
  insight?: Insight | null;
}

export interface PreflightReport {
  task: string;
  paths: string[];
  tool: string | null;
  command: string | null;
  project: string | null;
  mode: 'task' | 'hook';
  /** In rank order. */
  selected: SelectedLesson[];
  /** Lessons that were selected but left out to fit --budget. */
  omitted_by_budget: number;
  /** Set when nothing was selected: why. */
  message: string | null;
  index_digest: string;
  receipt: string;
  /** Set with --rerank: what the reviewer decided, or why the plain ranking stands. */
  rerank?: RerankOutcome;
}
