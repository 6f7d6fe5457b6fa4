import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { parseLessonText } from '../../src/lesson/parse.js';
import { builtValidator, compiledValidatorFile, SCHEMA_NAMES, validateAgainst } from '../../src/schema/validate.js';
import { PACKAGE_ROOT, tempDir } from '../helpers/repo.js';

/** The validators the build writes as code (scripts/build-bundles.mjs) stand in for ajv's compile at run time. */
describe('the built schema validators', () => {
  it('exist for every shipped schema', () => {
    const shipped = fs
      .readdirSync(path.join(PACKAGE_ROOT, 'schemas'))
      .filter((name) => name.endsWith('.schema.json'))
      .map((name) => name.slice(0, -'.schema.json'.length))
      .sort();
    expect([...SCHEMA_NAMES].sort()).toEqual(shipped);
    for (const name of SCHEMA_NAMES) expect(fs.existsSync(compiledValidatorFile(name)), name).toBe(true);
  });

  it('are what a run uses: checking a lesson loads neither ajv nor a schema compile', () => {
    const script = [
      `const { validateAgainst } = await import(${JSON.stringify(path.join(PACKAGE_ROOT, 'dist/src/schema/validate.js'))});`,
      `const { createRequire } = await import('node:module');`,
      `const errors = validateAgainst('lesson', { id: 'x' });`,
      `console.log(JSON.stringify({ errors: errors.length, loaded: Object.keys(createRequire(import.meta.url).cache).filter((file) => file.includes('ajv')) }));`,
    ].join('\n');
    const out = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })) as { errors: number; loaded: string[] };
    expect(out.errors).toBeGreaterThan(0);
    // Only ajv's small run-time helpers, which the generated code requires.
    expect(out.loaded.length).toBeGreaterThan(0);
    expect(out.loaded.filter((file) => !file.includes(`${path.sep}runtime${path.sep}`))).toEqual([]);
  });

  it('give the errors a compile of the schema gives, on real and broken lessons', () => {
    const schema = JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'schemas/lesson.schema.json'), 'utf8'));
    const compiled = new Ajv2020({ allErrors: true, strict: true, useDefaults: false, validateSchema: false }).compile(schema);
    const built = builtValidator(compiledValidatorFile('lesson'), fs.readFileSync(path.join(PACKAGE_ROOT, 'schemas/lesson.schema.json')))!;
    expect(built).toBeTypeOf('function');
    const folder = path.join(PACKAGE_ROOT, 'lessons/cases');
    const documents: unknown[] = [];
    for (const file of fs.readdirSync(folder).filter((name) => name.endsWith('.md')).slice(0, 5)) {
      const parsed = parseLessonText(fs.readFileSync(path.join(folder, file), 'utf8'));
      if (!parsed.ok) throw new Error(`${file}: ${parsed.problem.message}`);
      const data = parsed.file.data;
      documents.push(data, { ...data, id: 'Not An Id' }, { ...data, status: 'maybe', extra: 1 }, { ...data, title: undefined, tags: 'one' });
    }
    let invalid = 0;
    for (const data of documents) {
      const clean = JSON.parse(JSON.stringify(data));
      expect(built(clean)).toBe(compiled(clean));
      expect(built.errors ?? null).toEqual(compiled.errors ?? null);
      if (compiled.errors) invalid += 1;
    }
    // Both kinds were compared.
    expect(invalid).toBeGreaterThan(0);
    expect(invalid).toBeLessThan(documents.length);
    expect(validateAgainst('lesson', { id: 'Not An Id' }).length).toBeGreaterThan(0);
  });

  it('are not believed when they were made from another schema text (an edited schema, an old build)', () => {
    const file = compiledValidatorFile('lesson');
    const schema = fs.readFileSync(path.join(PACKAGE_ROOT, 'schemas/lesson.schema.json'));
    expect(builtValidator(file, schema)).toBeTypeOf('function');
    expect(builtValidator(file, Buffer.concat([schema, Buffer.from(' ')]))).toBeUndefined();
    const broken = path.join(tempDir(), 'lesson.cjs');
    fs.writeFileSync(broken, 'module.exports = 1;');
    expect(builtValidator(broken, schema)).toBeUndefined();
    expect(builtValidator(path.join(tempDir(), 'absent.cjs'), schema)).toBeUndefined();
  });
});
