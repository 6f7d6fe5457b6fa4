import { Buffer, isUtf8 } from 'node:buffer';
import { createRequire } from 'node:module';
import type yamlType from 'js-yaml';
import {
  DEFAULTS,
  FRONTMATTER_KEYS,
  INSIGHTS,
  KINDS,
  TRIGGER_KEYS,
  emptyTriggers,
  type Application,
  type Insight,
  type Kind,
  type Lesson,
  type Level,
  type Severity,
  type Source,
  type Status,
  type Triggers,
} from './model.js';

/** A problem with the file itself, before any field is looked at. */
export interface ParseProblem {
  rule: 'encoding' | 'format' | 'frontmatter' | 'yaml';
  line?: number;
  message: string;
}

export interface ParsedFile {
  /** The frontmatter as YAML gave it, dates already turned back into YYYY-MM-DD strings. */
  data: Record<string, unknown>;
  body: string;
  /** File line (1-based) of each top-level frontmatter key; computed on first use. */
  readonly keyLines: Map<string, number>;
  /** The frontmatter text between the delimiters, for locating nested fields. */
  frontmatter: string;
}

export type ParseResult = { ok: true; file: ParsedFile; warnings: ParseProblem[] } | { ok: false; problem: ParseProblem };

let yaml: typeof yamlType | undefined;

/** Defined (true) in the command bundles only (scripts/build-bundles.mjs). */
declare const LESSONS_BUNDLE: boolean | undefined;

/**
 * js-yaml on first use (readers of cached lessons never load it). `require` in the command bundles
 * (dist/fast/: the bundler takes js-yaml in, so V8's code cache holds it), Node's own from an
 * ES module otherwise.
 */
function yamlParser(): typeof yamlType {
  // Not `typeof require`: an ES module sees a global require where its host defines one (`node -e`, a REPL), which resolves from elsewhere.
  yaml ??= (typeof LESSONS_BUNDLE === 'boolean' ? require('js-yaml') : createRequire(import.meta.url)('js-yaml')) as typeof yamlType;
  return yaml;
}

/**
 * The frontmatter's fields. YAML's 1.2 core schema keeps dates the YYYY-MM-DD strings the
 * format wants (no Date objects to turn back) and `yes`/`no` strings. Frontmatter of comments
 * and blanks only is no fields. The text handed to YAML starts at the end of the opening `---`,
 * so YAML's line 0 is the file's line 1.
 */
function frontmatterData(frontmatter: string): unknown {
  if (frontmatter.replace(/^\s*#[^\n]+/gm, '').trim() === '') return {};
  const parser = yamlParser();
  return parser.load(`\n${frontmatter}`, { schema: parser.CORE_SCHEMA });
}

/**
 * The YAML frontmatter of any markdown file (an agent's rule file, say), read as a lesson's is:
 * undefined when the file has none, else its data or why it does not parse.
 */
export function markdownFrontmatter(text: string): { data: unknown } | { error: string } | undefined {
  if (!/^---\r?\n/.test(text)) return undefined;
  const start = text.indexOf('\n') + 1;
  const close = /^---\s*$/m.exec(text.slice(start));
  if (!close) return { error: 'its frontmatter has no closing `---` line' };
  try {
    return { data: frontmatterData(text.slice(start, start + close.index)) };
  } catch (error) {
    return { error: (error as Error).message.split('\n')[0]! };
  }
}

const EXPECTED_FORM = 'expected a file that starts with a `---` line, then YAML fields, then a closing `---` line';

/** Decodes UTF-8 strictly: invalid bytes are an error with the line they are on, never U+FFFD. */
export function decodeUtf8(bytes: Uint8Array): { ok: true; text: string } | { ok: false; problem: ParseProblem } {
  if (isUtf8(bytes)) return { ok: true, text: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8') };
  {
    const offset = firstInvalidUtf8Offset(bytes);
    let line = 1;
    for (let i = 0; i < offset; i++) if (bytes[i] === 0x0a) line++;
    return {
      ok: false,
      problem: { rule: 'encoding', line, message: `invalid UTF-8 at byte ${offset}: save the file as UTF-8` },
    };
  }
}

function firstInvalidUtf8Offset(bytes: Uint8Array): number {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let low = 0;
  let high = bytes.length;
  // The longest valid prefix, found by bisection; a split multi-byte sequence only moves it by 3.
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    try {
      decoder.decode(bytes.subarray(0, mid));
      low = mid;
    } catch {
      high = mid - 1;
    }
  }
  return low;
}

/**
 * Splits a lesson file into frontmatter and body and parses the frontmatter's YAML.
 * A byte order mark and CRLF line endings are read correctly but reported, so the
 * files in git stay in the one form the CLI writes.
 */
export function parseLessonText(text: string): ParseResult {
  const warnings: ParseProblem[] = [];
  let source = text;
  if (source.startsWith('\uFEFF')) {
    warnings.push({ rule: 'format', line: 1, message: 'file starts with a byte order mark: save it as UTF-8 without BOM' });
    source = source.slice(1);
  }
  if (source.includes('\r\n')) {
    const line = source.slice(0, source.indexOf('\r\n')).split('\n').length;
    warnings.push({
      rule: 'format',
      line,
      message: 'file has CRLF line endings: convert it to LF (add `lessons/** text eol=lf` to .gitattributes)',
    });
    source = source.replace(/\r\n/g, '\n');
  }
  if (source.trim() === '') {
    return { ok: false, problem: { rule: 'frontmatter', line: 1, message: `file is empty: ${EXPECTED_FORM}` } };
  }
  const split = splitDelimited(source);
  if ('problem' in split) return { ok: false, problem: split.problem };
  const { frontmatter, body } = split;
  if (frontmatter.length > MAX_FRONTMATTER_CHARS) {
    return {
      ok: false,
      problem: { rule: 'yaml', line: 2, message: `frontmatter is ${frontmatter.length} characters, over the ${MAX_FRONTMATTER_CHARS} limit: keep fields short and put long text in the body` },
    };
  }
  let data: unknown;
  try {
    data = frontmatterData(frontmatter);
  } catch (error) {
    return { ok: false, problem: yamlProblem(error) };
  }
  const shape = expandedShape(data);
  if (shape) return { ok: false, problem: { rule: 'yaml', line: 2, message: shape } };
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    return {
      ok: false,
      problem: { rule: 'yaml', line: 2, message: 'frontmatter is not a mapping of fields: expected `key: value` lines' },
    };
  }
  return {
    ok: true,
    file: parsedFile(data as Record<string, unknown>, body, frontmatter),
    warnings,
  };
}

/**
 * A lesson text (LF line ends, no byte order mark) split at its frontmatter's delimiters: the
 * first line `---`, and the first later line that is `---` or `...` (trailing blanks allowed).
 */
function splitDelimited(source: string): { frontmatter: string; body: string } | { problem: ParseProblem } {
  const firstBreak = source.indexOf('\n');
  const firstLine = firstBreak < 0 ? source : source.slice(0, firstBreak);
  if (firstLine.trimEnd() !== '---') return { problem: { rule: 'frontmatter', line: 1, message: `missing frontmatter: ${EXPECTED_FORM}; found ${excerpt(firstLine)}` } };
  const rest = firstBreak < 0 ? '' : source.slice(firstBreak + 1);
  const match = /^(?:---|\.\.\.)[ \t]*$/m.exec(rest);
  if (!match) return { problem: { rule: 'frontmatter', line: 1, message: `unterminated frontmatter: no closing \`---\` line; ${EXPECTED_FORM}` } };
  const afterClose = rest.indexOf('\n', match.index);
  return { frontmatter: rest.slice(0, Math.max(0, match.index - 1)), body: normaliseBody(afterClose < 0 ? '' : rest.slice(afterClose + 1)) };
}

/**
 * The body parseLessonText() gives a lesson file's text, without parsing its frontmatter (what
 * the search cache indexes of a lesson beyond its index entry); undefined when the text has no
 * frontmatter to split off.
 */
export function lessonBody(text: string): string | undefined {
  const source = (text.startsWith('\uFEFF') ? text.slice(1) : text).replace(/\r\n/g, '\n');
  const split = splitDelimited(source);
  return 'problem' in split ? undefined : split.body;
}

/** Frontmatter longer than this is not parsed: fields are short, long text belongs in the body. */
export const MAX_FRONTMATTER_CHARS = 64 * 1024;
/** Values (scalars, lists, mappings) the frontmatter may hold once YAML aliases are expanded. */
export const MAX_FRONTMATTER_VALUES = 10_000;
export const MAX_FRONTMATTER_DEPTH = 32;

/**
 * Why `data` is too big to hand on, or undefined. js-yaml resolves an alias (`*name`) to the
 * same object without copying, so an alias bomb parses in a millisecond and explodes later, in
 * whatever walks it (JSON, the schema validator, the guard's cache). The walk counts every
 * value as a reader would see it, aliases expanded, and stops at the bound.
 */
function expandedShape(data: unknown): string | undefined {
  let values = 0;
  const visit = (value: unknown, depth: number): string | undefined => {
    if (++values > MAX_FRONTMATTER_VALUES) {
      return `frontmatter holds more than ${MAX_FRONTMATTER_VALUES} values once YAML aliases (\`*name\`) are expanded: write the values out instead of repeating anchors`;
    }
    if (value === null || typeof value !== 'object') return undefined;
    if (depth > MAX_FRONTMATTER_DEPTH) return `frontmatter is nested more than ${MAX_FRONTMATTER_DEPTH} levels deep: lesson fields are flat lists and short mappings`;
    for (const child of Object.values(value as object)) {
      const problem = visit(child, depth + 1);
      if (problem) return problem;
    }
    return undefined;
  };
  return visit(data, 0);
}

/** Leading blank lines dropped, exactly one final newline: the form the serializer writes. */
export function normaliseBody(body: string): string {
  const trimmed = body.replace(/^\s*\n/, '').trimEnd();
  return trimmed === '' ? '' : `${trimmed}\n`;
}

function yamlProblem(error: unknown): ParseProblem {
  const mark = (error as { mark?: { line?: number } }).mark;
  const reason = (error as { reason?: string }).reason ?? (error instanceof Error ? error.message.split('\n')[0] : String(error));
  // YAML reads from the end of the opening `---` (frontmatterData()): its line 0 is the file's line 1.
  const line = typeof mark?.line === 'number' ? mark.line + 1 : undefined;
  return {
    rule: 'yaml',
    ...(line === undefined ? {} : { line }),
    message: `malformed YAML in frontmatter: ${reason}; quote values that contain \`: \` or start with [ { * & ! | > ' " % @`,
  };
}

function excerpt(text: string): string {
  const short = text.length > 40 ? `${text.slice(0, 40)}…` : text;
  return short === '' ? 'an empty first line' : `\`${short}\``;
}

/** A ParsedFile from its parts (key lines are found on first use). */
function parsedFile(data: Record<string, unknown>, body: string, frontmatter: string): ParsedFile {
  let keyLines: Map<string, number> | undefined;
  return {
    data,
    body,
    frontmatter,
    get keyLines() {
      return (keyLines ??= topLevelKeyLines(frontmatter));
    },
  };
}

function topLevelKeyLines(frontmatter: string): Map<string, number> {
  const lines = new Map<string, number>();
  frontmatter.split('\n').forEach((line, i) => {
    const match = /^([A-Za-z0-9_][\w-]*)\s*:/.exec(line);
    if (match?.[1] && !lines.has(match[1])) lines.set(match[1], i + 2);
  });
  return lines;
}

/**
 * File line of a field given as a JSON pointer (`/triggers/paths/1`): the top-level key's
 * line, refined to a nested key's line when one follows it.
 */
export function lineOfField(file: Pick<ParsedFile, 'keyLines' | 'frontmatter'>, pointer: string): number | undefined {
  const parts = pointer.split('/').filter(Boolean);
  const top = parts[0];
  if (top === undefined) return 2;
  const topLine = file.keyLines.get(top);
  if (topLine === undefined || parts.length === 1) return topLine;
  const nested = parts[1];
  if (nested === undefined || /^\d+$/.test(nested)) return topLine;
  const lines = file.frontmatter.split('\n');
  for (let i = topLine - 1; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (i > topLine - 1 && /^\S/.test(line)) break;
    if (new RegExp(`^\\s+${nested}\\s*:`).test(line)) return i + 2;
  }
  return topLine;
}

// ---- normalisation: raw frontmatter -> Lesson, tolerant of wrong types (the schema reports them) ----

function str(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return null;
}

function strList(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(str).filter((v): v is string => v !== null);
  const single = str(value);
  return single === null || single === '' ? [] : [single];
}

function int(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[], fallback: T): T {
  return allowed.includes(value as T) ? (value as T) : fallback;
}

function applications(value: unknown): Application[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter((v): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v))
    .map((v) => ({ context: str(v.context) ?? '', ref: str(v.ref) ?? '', validated_at: str(v.validated_at) ?? '' }));
}

function triggers(value: unknown): Triggers {
  const result = emptyTriggers();
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return result;
  const record = value as Record<string, unknown>;
  for (const key of TRIGGER_KEYS) result[key] = strList(record[key]);
  return result;
}

const KNOWN_KEYS: ReadonlySet<string> = new Set(FRONTMATTER_KEYS);

/** Applies the format's defaults. `level` falls back to the folder's level when the field is wrong. */
export function toLesson(data: Record<string, unknown>, body: string, folderLevel: Level): Lesson {
  const extra: Record<string, unknown> = {};
  for (const key of Object.keys(data)) if (!KNOWN_KEYS.has(key)) extra[key] = data[key];
  const summary = str(data.summary);
  return {
    id: str(data.id) ?? '',
    title: str(data.title) ?? '',
    level: oneOf<Level>(data.level, ['case', 'pattern', 'principle'], folderLevel),
    status: oneOf<Status>(data.status, ['candidate', 'validated', 'canonical', 'retired'], 'candidate'),
    severity: oneOf<Severity>(data.severity, ['low', 'medium', 'high', 'critical'], DEFAULTS.severity),
    tags: strList(data.tags),
    confidence: int(data.confidence, DEFAULTS.confidence),
    transferability: int(data.transferability, DEFAULTS.transferability),
    source: oneOf<Source>(data.source, ['curated', 'auto'], DEFAULTS.source),
    occurrences: int(data.occurrences, DEFAULTS.occurrences),
    created_at: str(data.created_at),
    last_seen: str(data.last_seen),
    last_validated_at: str(data.last_validated_at),
    summary: summary === null || summary.trim() === '' ? null : summary,
    project: str(data.project),
    kind: KINDS.includes(data.kind as Kind) ? (data.kind as Kind) : null,
    insight: INSIGHTS.includes(data.insight as Insight) ? (data.insight as Insight) : null,
    source_case_ids: strList(data.source_case_ids),
    applications: applications(data.applications),
    source_pattern_ids: strList(data.source_pattern_ids),
    duplicate_of: str(data.duplicate_of),
    superseded_by: str(data.superseded_by),
    retired_reason: str(data.retired_reason),
    promoted_to: strList(data.promoted_to),
    triggers: triggers(data.triggers),
    extra,
    body,
  };
}
