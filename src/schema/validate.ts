import { createRequire } from 'node:module';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { readBytes } from '../io/fs.js';
import { packageFile } from '../io/package-root.js';
import { sha256 } from '../util/digest.js';

export const SCHEMA_NAMES = ['lesson', 'index', 'policy', 'semantic-review', 'lesson-draft', 'evals', 'sources-lock', 'source-applications', 'lesson-rerank', 'ask-answer'] as const;

export type SchemaName = (typeof SCHEMA_NAMES)[number];

export interface SchemaError {
  /** JSON pointer of the field, `''` for the whole document. */
  pointer: string;
  /** The field as people write it: `triggers.paths[1]`. */
  field: string;
  message: string;
}

const compiled = new Map<SchemaName, ValidateFunction>();
let ajv: Ajv2020 | undefined;

/** The options every validator is compiled with, at build time and at run time alike. */
const AJV_OPTIONS = { allErrors: true, strict: true, useDefaults: false, validateSchema: false } as const;

function schemaText(name: SchemaName): Buffer {
  return readBytes(packageFile('schemas', `${name}.schema.json`));
}

export function readSchema(name: SchemaName): Record<string, unknown> {
  return JSON.parse(schemaText(name).toString('utf8')) as Record<string, unknown>;
}

/** Where the build writes a schema's validator as code (scripts/build-bundles.mjs, through validatorSource). */
export function compiledValidatorFile(name: SchemaName): string {
  return packageFile('dist', 'src', 'schema', 'compiled', `${name}.cjs`);
}

function newAjv(source: boolean): Ajv2020 {
  const { Ajv2020: Ajv } = createRequire(import.meta.url)('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  // The schemas ship with the package and are checked against the meta-schema by the tests
  // (test/unit/schemas-meta.test.ts); skipping that check here halves the compile time.
  return new Ajv({ ...AJV_OPTIONS, ...(source ? { code: { source: true } } : {}) });
}

/**
 * A schema's validator as a CommonJS module (ajv's standalone code), with the digest of the
 * schema text it was made from: loading it costs about 5 ms, where loading ajv and compiling the
 * schema costs about 100 (every run that checks one lesson paid that).
 */
export function validatorSource(name: SchemaName): string {
  const maker = newAjv(true);
  const validate = maker.compile(readSchema(name));
  const standalone = (createRequire(import.meta.url)('ajv/dist/standalone/index.js') as { default: (ajv: Ajv2020, fn: ValidateFunction) => string }).default;
  return `${standalone(maker, validate)}\nmodule.exports.schemaDigest = ${JSON.stringify(sha256(schemaText(name)))};\n`;
}

/** The build's validator in `file`, when it was made from `schema` (the text that ships); never one made from another. */
export function builtValidator(file: string, schema: Uint8Array): ValidateFunction | undefined {
  try {
    const built = createRequire(import.meta.url)(file) as ValidateFunction & { schemaDigest?: unknown };
    return typeof built === 'function' && built.schemaDigest === sha256(schema) ? built : undefined;
  } catch {
    return undefined;
  }
}

function validator(name: SchemaName): ValidateFunction {
  let validate = compiled.get(name);
  if (!validate) {
    // Compiled here (ajv loaded on first use: about 100 ms with the compile) only when the build's code is missing or was made from another schema.
    validate = builtValidator(compiledValidatorFile(name), schemaText(name)) ?? (ajv ??= newAjv(false)).compile(readSchema(name));
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

/** A JSON pointer's parts, unescaped (`/projects/a~1b` -> projects, a/b). */
export function pointerParts(pointer: string): string[] {
  return pointer
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
}

export function pointerToField(pointer: string): string {
  return pointerParts(pointer).reduce((field, part) => (/^\d+$/.test(part) ? `${field}[${part}]` : field === '' ? part : `${field}.${part}`), '');
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
