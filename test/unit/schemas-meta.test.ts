import fs from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../helpers/repo.js';

describe('the shipped JSON schemas', () => {
  // The validator skips meta-schema validation at run time for speed; this is where it happens.
  const names = fs.readdirSync(path.join(PACKAGE_ROOT, 'schemas')).filter((name) => name.endsWith('.schema.json'));
  it.each(names)('%s is a valid JSON Schema 2020-12 document', (name) => {
    const ajv = new Ajv2020({ strict: true });
    const schema = JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'schemas', name), 'utf8'));
    expect(ajv.validateSchema(schema), JSON.stringify(ajv.errors)).toBe(true);
  });
});
