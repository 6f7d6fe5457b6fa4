/**
 * `lessons export --to <target>`: one source of truth in lessons/, rendered for each tool. The
 * targets (targets.ts) plan what to write; this file splices sections between their markers,
 * writes the files a target owns, removes its stale ones, refuses to overwrite a file it does
 * not own, and warns when a tool would cut what it writes (budget.ts).
 */
import path from 'node:path';
import { LessonsError } from '../errors.js';
import { buildIndex, type IndexEntry } from '../index/build.js';
import { readTextIfExists, writeInRepo } from '../io/fs.js';
import { listDirIfExists, pathExists, removeFile } from '../io/paths.js';
import { pathInside } from '../io/inside.js';
import { findRepoRoot } from '../io/repo.js';
import { loadLessons } from '../lesson/load.js';
import { lessonsCommand } from '../init/install.js';
import { loadPolicy } from '../policy/validate-policy.js';
import { sortStrings } from '../util/compare.js';
import { budgetWarning } from './budget.js';
import { exportableLessons } from './lesson-text.js';
import { BEGIN_MARKER, END_MARKER, spliceSection } from './render.js';
import { generatedLine, type ExportTargetDeclaration, type OwnedFiles } from './target.js';
import { EXPORT_TARGET_DECLARATIONS, exportTargetNamed, type ExportTarget } from './targets.js';

export { EXPORT_TARGETS, type ExportTarget } from './targets.js';

export interface ExportResult {
  target: ExportTarget;
  lessons: number;
  /** Repo-relative files written because their content changed (with `check`: that would be). */
  written: string[];
  unchanged: string[];
  /** Generated files of lessons no longer exported (with `check`: that would be). */
  removed: string[];
  /** What a tool would cut of what is written: the file, and a message naming the limit and the lessons. */
  warnings: ExportWarning[];
  /** `check`: nothing was written; `written` and `removed` say what is stale. */
  checked: boolean;
}

export interface ExportWarning {
  file: string;
  message: string;
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

/** The files in `owned.dir` that the target wrote (they carry its generated line), repo-relative, sorted. */
function ownedFilesPresent(root: string, target: string, owned: OwnedFiles): string[] {
  return sortStrings(listDirIfExists(path.join(root, owned.dir)))
    .filter((name) => name.startsWith(owned.prefix) && name.endsWith(owned.suffix))
    .map((name) => `${owned.dir}/${name}`)
    .filter((rel) => (readIfExists(path.join(root, rel)) ?? '').includes(generatedLine(target)));
}

function isExported(root: string, target: ExportTargetDeclaration): boolean {
  if (target.sectionFiles.some((rel) => (readIfExists(path.join(root, rel)) ?? '').includes(BEGIN_MARKER))) return true;
  return target.owned !== undefined && ownedFilesPresent(root, target.name, target.owned).length > 0;
}

/**
 * The targets this repository exports to: a file with the export markers, or a file a target
 * owns with its generated line. What `lessons doctor` and the guard's ci stage check.
 */
export function exportedTargets(root: string): ExportTarget[] {
  return EXPORT_TARGET_DECLARATIONS.filter((target) => isExported(root, target)).map((target) => target.name);
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

/** The lessons every export renders: the local ones and the sources', as exportableLessons keeps them. */
async function exportEntries(root: string): Promise<IndexEntry[]> {
  const local = buildIndex(loadLessons(root).lessons).lessons;
  return exportableLessons([...local, ...(await sourcesBeside(root, local))]);
}

/**
 * Every export this repository keeps (`targets`, exportedTargets unless given), checked against the lessons read once:
 * what `lessons doctor` and the guard's ci stage report.
 */
export async function checkExports(root: string, targets: readonly ExportTarget[] = exportedTargets(root)): Promise<Array<{ target: ExportTarget; result: ExportResult }>> {
  if (targets.length === 0) return [];
  const entries = await exportEntries(root);
  const checked: Array<{ target: ExportTarget; result: ExportResult }> = [];
  for (const target of targets) checked.push({ target, result: await exportLessons({ cwd: root, to: target, check: true }, entries) });
  return checked;
}

/**
 * Renders the lessons for `to` (the local ones and the sources'); with `check`, writes nothing
 * and reports what is stale. `entries`, when given, are the lessons already read (checkExports).
 */
export async function exportLessons(options: { cwd: string; to: ExportTarget; check?: boolean }, entries?: readonly IndexEntry[]): Promise<ExportResult> {
  const root = findRepoRoot(options.cwd);
  const target = exportTargetNamed(options.to);
  entries ??= await exportEntries(root);
  const plan = target.plan(entries, lessonsCommand(root));
  const result: ExportResult = { target: options.to, lessons: entries.length, written: [], unchanged: [], removed: [], warnings: [], checked: options.check === true };
  const changes: Array<{ rel: string; file: string; content: string }> = [];
  // A lesson's id becomes a file name: whatever it holds, the file read and written stays inside the repository.
  const place = (rel: string): { file: string; existing: string | undefined } => {
    const file = pathInside(root, rel, 'a lesson id');
    return { file, existing: readIfExists(file) };
  };
  const consider = (rel: string, file: string, content: string, existing: string | undefined): void => {
    if (existing === content) result.unchanged.push(rel);
    else changes.push({ rel, file, content });
  };

  for (const section of plan.sections) {
    const { file, existing } = place(section.rel);
    const next = spliceSection(existing, section.text);
    if (next === undefined) {
      throw new LessonsError('INVALID_CONFIG', `${section.rel} has a broken lessons section: it needs exactly one \`${BEGIN_MARKER}\` followed by one \`${END_MARKER}\`; fix the markers (or remove both), then run again`);
    }
    const start = next.indexOf(BEGIN_MARKER);
    const warning = budgetWarning(section.rel, next, section.pieces.map((piece) => ({ label: piece.label, end: start + piece.end })), section.limit);
    if (warning) result.warnings.push({ file: section.rel, message: warning });
    consider(section.rel, file, next, existing);
  }

  const wanted = new Set<string>();
  for (const owned of plan.files) {
    wanted.add(owned.rel);
    const { file, existing } = place(owned.rel);
    if (existing !== undefined && existing !== owned.text && !existing.includes(generatedLine(target.name))) {
      throw new LessonsError('REFUSED', `${owned.rel} is not a file \`lessons export --to ${target.name}\` wrote (it lacks the line "${generatedLine(target.name)}"): move it away or rename it, then run again`, 1);
    }
    const warning = budgetWarning(owned.rel, owned.text, owned.pieces, owned.limit);
    if (warning) result.warnings.push({ file: owned.rel, message: warning });
    consider(owned.rel, file, owned.text, existing);
  }
  for (const shadow of target.shadowedBy ?? []) {
    if (!pathExists(path.join(root, shadow.file))) continue;
    result.warnings.push({ file: shadow.file, message: `${shadow.reader} reads ${shadow.file} instead of ${shadow.instead} in the same folder (${shadow.source}), so it never reads the lessons exported to ${shadow.instead}: move what ${shadow.file} holds into ${shadow.instead}, or remove it` });
  }
  // Only files this target wrote are removed: a hand-written file beside them stays.
  if (target.owned) result.removed.push(...ownedFilesPresent(root, target.name, target.owned).filter((rel) => !wanted.has(rel)));

  result.written.push(...changes.map((change) => change.rel));
  if (!result.checked) {
    for (const change of changes) writeInRepo(root, change.file, change.content);
    for (const rel of result.removed) removeFile(path.join(root, rel));
  }
  return result;
}
