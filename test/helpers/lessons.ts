/** Builders for lesson files in tests: a valid lesson by default, overridden field by field. */

export interface LessonFields {
  [key: string]: unknown;
}

const DEFAULT_BODY = `## Situation

A release went out.

## Mistake

The manifest kept the old version.

## Root Cause

Nothing checked every manifest.

## Fix

Bumped all manifests in one commit.

## Prevention Checklist

- [ ] Every manifest that carries the version is updated in the same commit.
`;

function yamlValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value) || typeof value === 'object') return JSON.stringify(value);
  if (typeof value === 'string') return /^[\w./ -]+$/.test(value) && !/^\d/.test(value) ? value : JSON.stringify(value);
  return String(value);
}

/** A lesson file's text; a field set to undefined is left out. */
export function lessonText(fields: LessonFields, body = DEFAULT_BODY): string {
  const level = (fields.level as string | undefined) ?? 'case';
  const merged: LessonFields = {
    id: 'case-2026-01-01-example',
    title: 'Example lesson',
    level,
    status: 'validated',
    severity: 'medium',
    tags: ['release'],
    created_at: '2026-01-01',
    last_validated_at: '2026-11-01',
    ...fields,
  };
  const lines = Object.entries(merged)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key}: ${key.endsWith('_at') || key === 'last_seen' ? String(value) : yamlValue(value)}`);
  return `---\n${lines.join('\n')}\n---\n\n${body}`;
}

const FOLDERS: Record<string, string> = { case: 'cases', pattern: 'patterns', principle: 'principles' };

/** `{ 'lessons/<folder>/<id>.md': text }` for a lesson with these fields. */
export function lessonFile(fields: LessonFields & { id: string }, body?: string): Record<string, string> {
  const level = (fields.level as string | undefined) ?? 'case';
  return { [`lessons/${FOLDERS[level]}/${fields.id}.md`]: lessonText(fields, body) };
}
