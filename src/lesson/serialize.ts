import { isIsoDate } from '../util/dates.js';
import { compareStrings } from '../util/compare.js';
import { TRIGGER_KEYS, type Application, type Lesson } from './model.js';

/**
 * Writes a lesson in the one form the CLI uses: known keys in FRONTMATTER_KEYS order, empty
 * optional fields left out, unknown keys last in code-point order, strings quoted only when
 * YAML would read them as something else. parse(serialize(x)) gives x back.
 */
export function serializeLesson(lesson: Lesson): string {
  const lines: string[] = [
    `id: ${scalar(lesson.id)}`,
    `title: ${scalar(lesson.title)}`,
    `level: ${lesson.level}`,
    `status: ${lesson.status}`,
    `severity: ${lesson.severity}`,
    `tags: ${flowList(lesson.tags)}`,
    `confidence: ${lesson.confidence}`,
    `transferability: ${lesson.transferability}`,
    `source: ${lesson.source}`,
    `occurrences: ${lesson.occurrences}`,
  ];
  const optional = (key: string, value: string | null): void => {
    if (value !== null) lines.push(`${key}: ${scalar(value)}`);
  };
  optional('created_at', lesson.created_at);
  optional('last_seen', lesson.last_seen);
  optional('last_validated_at', lesson.last_validated_at);
  optional('summary', lesson.summary);
  optional('project', lesson.project);
  optional('kind', lesson.kind);
  optional('insight', lesson.insight);
  if (lesson.source_case_ids.length > 0) lines.push(`source_case_ids: ${flowList(lesson.source_case_ids)}`);
  if (lesson.applications.length > 0) {
    lines.push('applications:');
    for (const application of lesson.applications) lines.push(`  - ${flowApplication(application)}`);
  }
  if (lesson.source_pattern_ids.length > 0) lines.push(`source_pattern_ids: ${flowList(lesson.source_pattern_ids)}`);
  optional('duplicate_of', lesson.duplicate_of);
  optional('superseded_by', lesson.superseded_by);
  optional('retired_reason', lesson.retired_reason);
  if (lesson.promoted_to.length > 0) lines.push(`promoted_to: ${flowList(lesson.promoted_to)}`);
  const triggerKeys = TRIGGER_KEYS.filter((key) => lesson.triggers[key].length > 0);
  if (triggerKeys.length > 0) {
    lines.push('triggers:');
    for (const key of triggerKeys) lines.push(`  ${key}: ${flowList(lesson.triggers[key])}`);
  }
  for (const key of Object.keys(lesson.extra).sort(compareStrings)) {
    lines.push(`${key}: ${JSON.stringify(lesson.extra[key]) ?? 'null'}`);
  }
  const head = `---\n${lines.join('\n')}\n---\n`;
  return lesson.body === '' ? head : `${head}\n${lesson.body}`;
}

function flowApplication(application: Application): string {
  return `{ context: ${scalar(application.context, true)}, ref: ${scalar(application.ref, true)}, validated_at: ${scalar(application.validated_at, true)} }`;
}

function flowList(values: string[]): string {
  return `[${values.map((value) => scalar(value, true)).join(', ')}]`;
}

/** Words YAML 1.1 reads as booleans, nulls or numbers. */
const NOT_A_STRING =
  /^(?:~|null|true|false|yes|no|on|off|y|n|=|<<|[-+]?\.inf|\.nan|[-+]?(?:\d[\d_]*(?:\.[\d_]*)?|\.\d[\d_]*)(?:e[-+]?\d+)?|0x[\da-f_]+|0o[0-7_]+|0b[01_]+|[-+]?\d[\d_]*(?::[0-5]?\d)+(?:\.[\d_]*)?)$/i;

/** A string that reads back as itself without quotes. */
function isPlainSafe(value: string, inFlow: boolean): boolean {
  if (value === '' || value !== value.trim()) return false;
  if (/^[-?:,[\]{}#&*!|>'"%@`]/.test(value)) return false;
  if (/[\n\t\\]|: |:$| #/.test(value)) return false;
  if (inFlow && /[,[\]{}]/.test(value)) return false;
  if (NOT_A_STRING.test(value)) return false;
  if (/^\d{4}-\d\d?-\d\d?/.test(value)) return isIsoDate(value);
  // eslint-disable-next-line no-control-regex
  return !/[\u0000-\u001f\u007f\u0085\u2028\u2029\ufeff]/.test(value);
}

function scalar(value: string, inFlow = false): string {
  return isPlainSafe(value, inFlow) ? value : JSON.stringify(value);
}
