import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { packageFile } from '../package-root.js';

export type SchemaName = 'lesson' | 'index' | 'policy' | 'semantic-review' | 'lesson-draft' | 'evals' | 'sources-lock' | 'source-applications' | 'lesson-rerank' | 'ask-answer';

export interface SchemaError {
  /** JSON pointer of the field, `''` for the whole document. */
  pointer: string;
  /** The field as people write it: `triggers.paths[1]`. */
  field: string;
  message: string;
}

const compiled = new Map<SchemaName, ValidateFunction>();
let ajv: Ajv2020 | undefined;

export function readSchema(name: SchemaName): Record<string, unknown> {
  return JSON.parse(fs.readFileSync(packageFile('schemas', `${name}.schema.json`), 'utf8')) as Record<string, unknown>;
}

function validator(name: SchemaName): ValidateFunction {
  let validate = compiled.get(name);
  if (!validate) {
    // Loaded on first use (about 25 ms), so modules that only need pointerToField stay light.
    const { Ajv2020: Ajv } = createRequire(import.meta.url)('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
    // The schemas ship with the package and are checked against the meta-schema by the tests
    // (test/unit/schemas-meta.test.ts); skipping that check here halves the compile time.
    ajv ??= new Ajv({ allErrors: true, strict: true, useDefaults: false, validateSchema: false });
    validate = ajv.compile(readSchema(name));
    compiled.set(name, validate);
  }
  return validate;
}

/** Validates `data` against `schemas/<name>.schema.json`; an empty list means valid. */
export function validateAgainst(name: SchemaName, data: unknown): SchemaError[] {
  const validate = validator(name);
  if (validate(data)) return [];
  return simplify(validate.errors ?? []);
}

export function pointerToField(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((field, part) => (/^\d+$/.test(part) ? `${field}[${part}]` : field === '' ? part : `${field}.${part}`), '');
}

/**
 * One message per field, in words: ajv reports each branch of an anyOf and each keyword
 * separately, which reads as noise.
 */
function simplify(errors: ErrorObject[]): SchemaError[] {
  const byField = new Map<string, SchemaError>();
  for (const error of errors) {
    const pointer =
      error.keyword === 'required'
        ? `${error.instancePath}/${(error.params as { missingProperty: string }).missingProperty}`
        : error.keyword === 'additionalProperties'
          ? `${error.instancePath}/${(error.params as { additionalProperty: string }).additionalProperty}`
          : error.instancePath;
    if (byField.has(pointer) && error.keyword !== 'anyOf') continue;
    byField.set(pointer, { pointer, field: pointerToField(pointer) || '(document)', message: describe(error) });
  }
  return [...byField.values()];
}

function describe(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return 'is not a known field';
    case 'enum':
      return `must be one of: ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'const':
      return `must be ${JSON.stringify(params.allowedValue)}`;
    case 'type':
      return `must be ${String(params.type).replace(',', ' or ')}`;
    case 'pattern':
      return patternMessage(String(params.pattern));
    case 'anyOf':
      return 'must be a kebab-case id or null';
    default:
      return error.message ?? 'is invalid';
  }
}

function patternMessage(pattern: string): string {
  if (pattern.startsWith('^\\d{4}')) return 'must be a date written YYYY-MM-DD';
  if (pattern.startsWith('^(?:[a-z0-9]+(?:-[a-z0-9]+)*:)?')) return 'must be a kebab-case lesson id (like `case-2026-05-12-missed-manifest`), or a source\'s as `<source>:<id>`';
  if (pattern.startsWith('^[a-z0-9]+(?:-')) return 'must be kebab-case: lower-case letters, digits and single hyphens (like `case-2026-05-12-missed-manifest`)';
  if (pattern.startsWith('^[a-z0-9]+(?:[-_.]')) return 'must be lower-case letters and digits joined by - _ or .';
  return `must match ${pattern}`;
}
