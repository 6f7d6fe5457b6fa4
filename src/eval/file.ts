import { LessonsError } from '../errors.js';
import type { PreflightInput } from '../preflight/query.js';
import { validateAgainst } from '../schema/validate.js';
import { parseJsonWithin } from '../util/json-depth.js';

/** lessons/evals.json: a team's retrieval regression tests (schemas/evals.schema.json). */

export const EVALS_FILE = 'lessons/evals.json';

export interface EvalCase {
  /** Unique within the file: the case's `name`, or its task, or its hook-mode context. */
  name: string;
  /** The `cases[i]` the case came from, for messages that point into the file. */
  field: string;
  input: PreflightInput;
  must: string[];
  must_not: string[];
  /** Preflight must select nothing. */
  no_match: boolean;
  /** Why the case exists, shown when it fails. */
  note: string | null;
}

export interface EvalFile {
  /** As the user named it: repo-relative when it is inside the repository. */
  file: string;
  cases: EvalCase[];
}

/** One case as the schema allows it. */
interface RawCase {
  name?: string;
  task?: string;
  paths?: string[];
  tool?: string;
  command?: string;
  project?: string;
  must?: string[];
  must_not?: string[];
  no_match?: boolean;
  note?: string;
}

function invalid(file: string, problems: string[]): LessonsError {
  const lines = problems.map((problem) => `  ${problem}`).join('\n');
  return new LessonsError('INVALID_CONFIG', `${file} is invalid:\n${lines}\nfix the fields named above (schema: schemas/evals.schema.json)`);
}

/** `--tool Edit --path package.json`: how a hook-mode case reads when it has no name. */
function contextName(input: PreflightInput): string {
  const parts = [
    ...(input.tool === null ? [] : [`--tool ${input.tool}`]),
    ...input.paths.map((file) => `--path ${file}`),
    ...(input.command === null ? [] : [`--command "${input.command}"`]),
  ];
  return parts.join(' ');
}

/** What the schema cannot say: each case is a preflight input with at least one expectation, and they agree. */
function caseProblems(raw: RawCase, field: string): string[] {
  const problems: string[] = [];
  const hasTask = (raw.task ?? '').trim() !== '';
  if (!hasTask && (raw.paths ?? []).length === 0 && raw.tool === undefined && raw.command === undefined) {
    problems.push(`${field}: give a task, or a tool, paths or command for hook mode`);
  }
  const must = raw.must ?? [];
  const mustNot = raw.must_not ?? [];
  if (must.length === 0 && mustNot.length === 0 && raw.no_match !== true) {
    problems.push(`${field}: say what preflight must select (must), must not select (must_not), or that it selects nothing (no_match: true)`);
  }
  if (raw.no_match === true && must.length > 0) problems.push(`${field}: no_match: true contradicts must: keep one of them`);
  for (const id of must.filter((id) => mustNot.includes(id))) problems.push(`${field}: ${id} is in both must and must_not: keep it in one`);
  return problems;
}

function toCase(raw: RawCase, field: string): EvalCase {
  const input: PreflightInput = {
    task: raw.task ?? '',
    paths: (raw.paths ?? []).map((file) => file.replace(/^(\.\/)+/, '')),
    tool: raw.tool ?? null,
    command: raw.command ?? null,
    project: raw.project ?? null,
  };
  return {
    name: raw.name ?? (input.task.trim() !== '' ? input.task.trim() : contextName(input)),
    field,
    input,
    must: raw.must ?? [],
    must_not: raw.must_not ?? [],
    no_match: raw.no_match === true,
    note: raw.note ?? null,
  };
}

/**
 * Parses and checks an evals file; `file` names it in messages. A malformed file is a
 * configuration error (exit 2) that names each field and says what to do.
 */
export function parseEvals(text: string, file: string): EvalFile {
  let data: unknown;
  try {
    data = parseJsonWithin(text);
  } catch (error) {
    throw new LessonsError('INVALID_CONFIG', `${file} is not valid JSON: ${(error as Error).message}; fix the file (schema: schemas/evals.schema.json)`);
  }
  const errors = validateAgainst('evals', data);
  if (errors.length > 0) throw invalid(file, errors.map((error) => `${error.field}: ${error.message}`));
  const raws = (data as { cases: RawCase[] }).cases;
  const problems = raws.flatMap((raw, i) => caseProblems(raw, `cases[${i}]`));
  const cases = raws.map((raw, i) => toCase(raw, `cases[${i}]`));
  const seen = new Map<string, string>();
  for (const evalCase of cases) {
    const first = seen.get(evalCase.name);
    if (first !== undefined) problems.push(`${evalCase.field}: its name "${evalCase.name}" is also the name of ${first}: give one of them a distinct name`);
    else seen.set(evalCase.name, evalCase.field);
  }
  if (problems.length > 0) throw invalid(file, problems);
  return { file, cases };
}
