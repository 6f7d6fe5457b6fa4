/**
 * Red -> green: a shell command that failed in a session, then a later command of the same
 * kind that passed. The pair is the strongest sign there is that something was learned (the
 * experience-memory plan's "test red -> green" trigger); the Stop hook drafts one candidate case
 * from it. Everything here is pure: the hooks feed it tool outcomes, session.ts keeps the state.
 *
 * A command's kind is its program and, for programs that take one, its subcommand: `npm test`,
 * `npm run build`, `cargo build`, `go test`, `make check`, `python manage.py`; programs without
 * subcommands are their own kind (`pytest`, `tsc`, `eslint`), whatever their arguments. Package
 * runners and wrappers are seen through (`npx vitest`, `uv run pytest`, `sudo make install`,
 * `FOO=1 npm test`, `python -m pytest`), `npm run test` is `npm test`, and in a chain the last
 * command that does the work counts (`cd app && npm test 2>&1 | tail` is `npm test`).
 */
import type { Draft } from '../capture/store.js';

/** How much of a failure the session keeps: enough to draft from, small enough for every hook. */
export const MAX_ERROR_LINES = 8;
export const MAX_LINE_CHARS = 200;
const MAX_COMMAND_CHARS = 300;
const MAX_OPEN = 5;
const MAX_FILES = 20;

/** Programs whose first word names what they do (`npm test`, `git push`, `make check`). */
const SUBCOMMAND_PROGRAMS = new Set([
  'npm', 'pnpm', 'yarn', 'bun', 'deno', 'cargo', 'go', 'git', 'make', 'gradle', 'gradlew', 'mvn', 'mvnw', 'dotnet', 'docker',
  'kubectl', 'helm', 'terraform', 'mix', 'rake', 'bundle', 'pip', 'pip3', 'uv', 'poetry', 'composer', 'swift', 'flutter',
  'dart', 'nx', 'turbo', 'lerna', 'just', 'task', 'lessons', 'python', 'python3', 'node', 'ruby', 'bash', 'sh', 'php', 'perl',
]);
const PACKAGE_MANAGERS = new Set(['npm', 'pnpm', 'yarn', 'bun']);
/** Words before the program that do not change what runs. */
const WRAPPERS = new Set(['sudo', 'time', 'env', 'nice', 'nohup', 'command', 'exec', 'npx', 'bunx', 'pnpx']);
/** `<runner> run|exec <program>`: the program is what runs. */
const RUNNERS = new Set(['uv', 'poetry', 'pipenv', 'bundle', 'pnpm', 'yarn', 'conda', 'hatch', 'pdm', 'rye']);
/**
 * Commands that only set the scene or look around: a chain's kind is the last command that is
 * not one of these, and one made only of them has no kind. `grep` finding nothing exits 1, and a
 * search that finds something later is no lesson.
 */
const SCENE = new Set([
  'cd', 'pushd', 'popd', 'export', 'set', 'unset', 'source', '.', 'true', 'false', 'echo', 'printf', 'sleep', 'clear', 'ls', 'pwd',
  'cat', 'mkdir', 'rm', 'cp', 'mv', 'touch', 'grep', 'egrep', 'fgrep', 'rg', 'ag', 'test', '[', '[[', 'diff', 'cmp', 'which', 'type',
  'find', 'head', 'tail', 'wc', 'sort', 'uniq', 'cut', 'awk', 'sed', 'jq', 'tr', 'xargs', 'stat', 'file', 'less', 'more', 'tee',
  'date', 'printenv', 'ps', 'kill', 'pgrep', 'pkill', 'ping', 'tree', 'du', 'df', 'chmod', 'ln',
]);

function words(segment: string): string[] {
  return segment.match(/"[^"]*"|'[^']*'|\S+/g)?.map((word) => word.replace(/^(["'])(.*)\1$/, '$2')) ?? [];
}

/** The kind of one simple command (no `&&`, `;` or `|`), or undefined when it only sets the scene. */
function simpleKind(segment: string): string | undefined {
  let rest = words(segment);
  for (;;) {
    const first = rest[0];
    if (first === undefined) return undefined;
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(first) || WRAPPERS.has(first) || (first.startsWith('-') && rest.length > 1)) rest = rest.slice(1);
    else if (first === 'timeout' && rest.length > 2) rest = rest.slice(2);
    else if (RUNNERS.has(first) && (rest[1] === 'run' || rest[1] === 'exec') && rest[2] !== undefined && !PACKAGE_MANAGERS.has(first)) rest = rest.slice(2);
    else if (/^python3?$/.test(first) && rest[1] === '-m' && rest[2] !== undefined) rest = rest.slice(2);
    else break;
  }
  const program = rest[0]!.split('/').pop()!.replace(/^gradlew$/, 'gradle').replace(/^mvnw$/, 'mvn').replace(/^python3$/, 'python').replace(/^pip3$/, 'pip');
  if (SCENE.has(program)) return undefined;
  if (!SUBCOMMAND_PROGRAMS.has(program)) return program;
  let args = rest.slice(1).filter((word) => !word.startsWith('-'));
  if (PACKAGE_MANAGERS.has(program) && (args[0] === 'run' || args[0] === 'run-script')) args = args.slice(1);
  const sub = args[0]?.split('/').pop();
  return sub ? `${program} ${sub === 't' && program === 'npm' ? 'test' : sub}` : program;
}

/** The kind of a shell command (see the module comment), or undefined when nothing in it does work. */
export function commandKind(command: string): string | undefined {
  let kind: string | undefined;
  for (const part of command.split(/&&|\|\||;|\n/)) {
    // In a pipeline the first command does the work; the rest read its output.
    const found = simpleKind(part.split(/(?<![|>&])\|(?!\|)/)[0]!.replace(/\d?>&?\s*\S+/g, ' '));
    if (found) kind = found;
  }
  return kind;
}

/**
 * A line that carries an error: an error, failure, exception, panic or traceback marker, or a
 * non-zero count of failures. `0 failed` and `no errors` are not errors.
 */
const ERROR_LINE = /\bERR!|\b(?:error|errors|fatal|exception|traceback|panic(?:ked)?|segmentation fault|assertionerror|failed to|cannot find|not found)\b|\bFAIL(?:ED|URE|S)?\b|\b[1-9]\d* (?:failed|failing|failures?|errors?)\b|\u2717|\u2716/i;
const NOT_ERROR = /\b(?:0|no) (?:errors?|failures?|failed)\b/i;

export function isErrorLine(line: string): boolean {
  return ERROR_LINE.test(line) && !(NOT_ERROR.test(line) && !/\b[1-9]\d* (?:failed|errors?)\b/i.test(line));
}

/** True when some line of a command's output carries an error (for harnesses that report no exit status). */
export function hasErrorOutput(output: string): boolean {
  return output.split('\n').some(isErrorLine);
}

function clip(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}

/**
 * The key lines of a failure's output: the lines that carry an error (the first ones, where a
 * failure starts, up to the bound), else the last lines (where a run ends). Redact before storing.
 */
export function keyErrorLines(output: string, max = MAX_ERROR_LINES): string[] {
  const lines = output.split('\n').map((line) => line.trim()).filter((line) => line !== '');
  const marked = lines.filter(isErrorLine);
  return (marked.length > 0 ? marked.slice(0, max) : lines.slice(-Math.min(max, 5))).map((line) => clip(line, MAX_LINE_CHARS));
}

export interface Failure {
  kind: string;
  command: string;
  /** The exit status when the harness reports it. */
  exit: number | null;
  lines: string[];
  /** Files edited since it failed (repo-relative). */
  files: string[];
}

export interface RedGreenPair {
  kind: string;
  failed: Omit<Failure, 'files' | 'kind'>;
  passed: string;
  files: string[];
}

export interface RedGreenState {
  /** Failures still waiting for a command of their kind to pass: the latest per kind. */
  open: Failure[];
  /** The first pair of the session: one draft per session at most. */
  pair: RedGreenPair | null;
  /** Set once the Stop hook drafted (or tried to draft) from the pair. */
  drafted: boolean;
}

export const EMPTY_RED_GREEN: RedGreenState = { open: [], pair: null, drafted: false };

/** A command that failed: it replaces an earlier open failure of its kind. Nothing changes once a pair was found. */
export function onFailure(state: RedGreenState, failure: Omit<Failure, 'files'>): RedGreenState {
  if (state.pair) return state;
  const entry: Failure = { ...failure, command: clip(failure.command, MAX_COMMAND_CHARS), lines: failure.lines.slice(0, MAX_ERROR_LINES), files: [] };
  const open = [...state.open.filter((item) => item.kind !== failure.kind), entry].slice(-MAX_OPEN);
  return { ...state, open };
}

/** A command that passed: with an open failure of its kind, the pair. A plain success changes nothing. */
export function onSuccess(state: RedGreenState, kind: string, command: string): RedGreenState {
  if (state.pair) return state;
  const failure = state.open.find((item) => item.kind === kind);
  if (!failure) return state;
  const { files, kind: _kind, ...failed } = failure;
  return { open: state.open.filter((item) => item !== failure), pair: { kind, failed, passed: clip(command, MAX_COMMAND_CHARS), files }, drafted: state.drafted };
}

/** Files an Edit or Write changed: what changed between every open failure and its fix. */
export function onEdit(state: RedGreenState, files: readonly string[]): RedGreenState {
  if (state.pair || state.open.length === 0 || files.length === 0) return state;
  return { ...state, open: state.open.map((item) => ({ ...item, files: [...new Set([...item.files, ...files])].slice(0, MAX_FILES) })) };
}

/** The state as read back from disk, anything malformed dropped. */
export function readRedGreen(value: unknown): RedGreenState {
  if (!value || typeof value !== 'object') return EMPTY_RED_GREEN;
  const data = value as Record<string, unknown>;
  const strings = (list: unknown): string[] => (Array.isArray(list) ? list.filter((item): item is string => typeof item === 'string') : []);
  const failure = (item: unknown): Failure | undefined => {
    if (!item || typeof item !== 'object') return undefined;
    const f = item as Record<string, unknown>;
    if (typeof f.kind !== 'string' || typeof f.command !== 'string') return undefined;
    return { kind: f.kind, command: f.command, exit: typeof f.exit === 'number' ? f.exit : null, lines: strings(f.lines), files: strings(f.files) };
  };
  const open = Array.isArray(data.open) ? data.open.map(failure).filter((item): item is Failure => item !== undefined) : [];
  let pair: RedGreenPair | null = null;
  const raw = data.pair as Record<string, unknown> | null | undefined;
  if (raw && typeof raw === 'object' && typeof raw.kind === 'string' && typeof raw.passed === 'string') {
    const failed = failure({ ...(raw.failed as object), kind: raw.kind });
    if (failed) pair = { kind: raw.kind, failed: { command: failed.command, exit: failed.exit, lines: failed.lines }, passed: raw.passed, files: strings(raw.files) };
  }
  return { open, pair, drafted: data.drafted === true };
}

/** The pair as a log: what the reviewer generalises, and the plain draft's evidence. */
export function pairLog(pair: RedGreenPair): string {
  return [
    `$ ${pair.failed.command}`,
    ...pair.failed.lines,
    pair.failed.exit === null ? '(failed)' : `(exit code ${pair.failed.exit})`,
    '',
    pair.files.length > 0 ? `Files changed before it passed: ${pair.files.join(', ')}` : 'No file edits were recorded before it passed.',
    '',
    `$ ${pair.passed}`,
    '(passed)',
    '',
  ].join('\n');
}

/**
 * The plain draft (no reviewer): a candidate case that keeps the evidence, with a trigger on
 * the command's kind so the hooks bring it up the next time that command runs.
 */
export function plainDraft(pair: RedGreenPair): Draft {
  const first = pair.failed.lines.find(isErrorLine) ?? pair.failed.lines[0];
  const files = pair.files.length > 0 ? pair.files.map((file) => `\`${file}\``).join(', ') : 'files the session did not record';
  const program = pair.kind.split(' ')[0]!;
  const body = [
    '## Situation',
    '',
    `\`${pair.failed.command}\` failed in an agent session${pair.failed.exit === null ? '' : ` (exit code ${pair.failed.exit})`}; a later \`${pair.kind}\` passed.`,
    '',
    '## Mistake',
    '',
    '```text',
    ...(pair.failed.lines.length > 0 ? pair.failed.lines : ['(no error output was recorded)']),
    '```',
    '',
    '## Fix',
    '',
    `Changed ${files}; then \`${pair.passed}\` passed.`,
    '',
    '## Prevention Checklist',
    '',
    `- [ ] Run \`${pair.kind}\` before calling a change done.`,
    '',
    '## Source',
    '',
    'Drafted by the `lessons` agent hooks from a red -> green pair (a command that failed, then one of the same kind that passed). Say why it failed and generalise the checklist before accepting it.',
    '',
  ].join('\n');
  return {
    title: clip(`${pair.kind} failed${first ? `: ${first}` : ''}`, 120),
    summary: `\`${pair.kind}\` failed${first ? ` (${clip(first, 160)})` : ''} and passed again after changes to ${files}.`,
    tags: ['red-green', program.replace(/[^a-z0-9._-]/gi, '').toLowerCase()].filter(Boolean),
    insight: 'critical_error',
    body,
    triggers: { commands: [`${pair.kind}*`] },
  };
}
