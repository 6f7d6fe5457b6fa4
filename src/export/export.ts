/** `lessons export --to cursor|claude|agents-md`: one source of truth in lessons/, rendered for each tool. */
import path from 'node:path';
import { LessonsError } from '../errors.js';
import { buildIndex, type IndexEntry } from '../index/build.js';
import { readTextIfExists, writeInRepo } from '../io/fs.js';
import { listDirIfExists, removeFile } from '../io/paths.js';
import { pathInside } from '../io/inside.js';
import { findRepoRoot, CURSOR_RULE_PREFIX, CURSOR_RULES_DIR } from '../io/repo.js';
import { loadLessons } from '../lesson/load.js';
import { lessonsCommand } from '../init/install.js';
import { loadPolicy } from '../policy/validate-policy.js';
import { sortStrings } from '../util/compare.js';
import { BEGIN_MARKER, CURSOR_GENERATED, END_MARKER, cursorRuleFile, exportableLessons, renderCursorRule, renderSection, spliceSection } from './render.js';

export const EXPORT_TARGETS = ['cursor', 'claude', 'agents-md'] as const;
export type ExportTarget = (typeof EXPORT_TARGETS)[number];

export interface ExportResult {
  target: ExportTarget;
  lessons: number;
  /** Repo-relative files written because their content changed (with `check`: that would be). */
  written: string[];
  unchanged: string[];
  /** Generated rules of lessons no longer exported (with `check`: that would be). */
  removed: string[];
  /** `check`: nothing was written; `written` and `removed` say what is stale. */
  checked: boolean;
}

export function isStale(result: ExportResult): boolean {
  return result.written.length + result.removed.length > 0;
}

function readIfExists(file: string): string | undefined {
  try {
    return readTextIfExists(file);
  } catch (error) {
    throw new LessonsError('IO', `cannot read ${file}: ${(error as Error).message}`);
  }
}

/**
 * The targets this repository exports to: a CLAUDE.md or AGENTS.md with the export markers, or
 * a rule in .cursor/rules that `export --to cursor` generated. What `lessons doctor` and the
 * guard's ci stage check for staleness.
 */
export function exportedTargets(root: string): ExportTarget[] {
  const targets: ExportTarget[] = [];
  const dir = path.join(root, CURSOR_RULES_DIR);
  const names = sortStrings(listDirIfExists(dir));
  if (names.some((name) => name.startsWith(CURSOR_RULE_PREFIX) && name.endsWith('.mdc') && (readIfExists(path.join(dir, name)) ?? '').includes(CURSOR_GENERATED))) targets.push('cursor');
  if ((readIfExists(path.join(root, 'CLAUDE.md')) ?? '').includes(BEGIN_MARKER)) targets.push('claude');
  if ((readIfExists(path.join(root, 'AGENTS.md')) ?? '').includes(BEGIN_MARKER)) targets.push('agents-md');
  return targets;
}

/**
 * The sources' lessons exported beside the local ones (`<source>:<id>`), as the lock has them:
 * an export is committed, so it must be what CI gets after `lessons sources update --locked`.
 */
async function sourcesBeside(root: string, local: readonly IndexEntry[]): Promise<IndexEntry[]> {
  const policy = loadPolicy(root);
  if (policy.sources.length === 0) return [];
  const { sourceEntriesBeside } = await import('../sources/entries.js');
  return sourceEntriesBeside(root, policy, local, { locked: true });
}

/** Renders the lessons for `to` (the local ones and the sources'); with `check`, writes nothing and reports what is stale. */
export async function exportLessons(options: { cwd: string; to: ExportTarget; check?: boolean }): Promise<ExportResult> {
  const root = findRepoRoot(options.cwd);
  const check = options.check === true;
  const local = buildIndex(loadLessons(root).lessons).lessons;
  const entries = exportableLessons([...local, ...(await sourcesBeside(root, local))]);
  const result: ExportResult = { target: options.to, lessons: entries.length, written: [], unchanged: [], removed: [], checked: check };
  const put = (rel: string, content: string): void => {
    // A lesson's id becomes a file name: whatever it holds, the file stays inside the repository.
    const file = pathInside(root, rel, 'a lesson id');
    if (readIfExists(file) === content) result.unchanged.push(rel);
    else {
      if (!check) writeInRepo(root, file, content);
      result.written.push(rel);
    }
  };

  if (options.to === 'cursor') {
    const wanted = new Set<string>();
    for (const entry of entries) {
      const rel = cursorRuleFile(entry);
      wanted.add(rel);
      put(rel, renderCursorRule(entry));
    }
    const dir = path.join(root, CURSOR_RULES_DIR);
    const names = sortStrings(listDirIfExists(dir));
    for (const name of names) {
      const rel = `${CURSOR_RULES_DIR}/${name}`;
      if (!name.startsWith(CURSOR_RULE_PREFIX) || !name.endsWith('.mdc') || wanted.has(rel)) continue;
      // Only rules this command wrote are removed: a hand-written lessons-*.mdc stays.
      if (!(readIfExists(path.join(root, rel)) ?? '').includes(CURSOR_GENERATED)) continue;
      if (!check) removeFile(path.join(root, rel));
      result.removed.push(rel);
    }
    return result;
  }

  const rel = options.to === 'claude' ? 'CLAUDE.md' : 'AGENTS.md';
  const next = spliceSection(readIfExists(path.join(root, rel)), renderSection(entries, options.to, lessonsCommand(root)));
  if (next === undefined) {
    throw new LessonsError('INVALID_CONFIG', `${rel} has a broken lessons section: it needs exactly one \`${BEGIN_MARKER}\` followed by one \`${END_MARKER}\`; fix the markers (or remove both), then run again`);
  }
  put(rel, next);
  return result;
}
