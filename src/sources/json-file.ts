import path from 'node:path';
import { LessonsError } from '../errors.js';
import { readTextIfExists } from '../io/fs.js';
import { validateAgainst, type SchemaName } from '../schema/validate.js';
import { parseJsonWithin } from '../util/json-depth.js';

/**
 * A committed JSON file of the sources feature, checked against its schema; undefined when it
 * does not exist. Unparseable or invalid: a config error naming each field and saying how to
 * restore the file (`restore`).
 */
export function readSourcesJson(root: string, file: string, schema: SchemaName, restore: string): unknown {
  const text = readTextIfExists(path.join(root, file), 'sources lock');
  if (text === undefined) return undefined;
  let data: unknown;
  try {
    data = parseJsonWithin(text);
  } catch (error) {
    throw new LessonsError('INVALID_CONFIG', `${file} is not valid JSON (${(error as Error).message}): ${restore}`);
  }
  const errors = validateAgainst(schema, data);
  if (errors.length > 0) {
    const lines = errors.map((error) => `  ${error.field}: ${error.message}`).join('\n');
    throw new LessonsError('INVALID_CONFIG', `${file} is invalid:\n${lines}\n${restore}`);
  }
  return data;
}
