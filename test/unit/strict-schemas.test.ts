import { describe, expect, it } from 'vitest';
import { readSchema } from '../../src/schema/validate.js';

/** Keywords strict structured-output mode rejects, or that have no place in a schema handed to a model. */
const UNSUPPORTED = ['allOf', 'not', 'if', 'then', 'else', 'dependentRequired', 'dependentSchemas', 'patternProperties', 'unevaluatedProperties', 'propertyNames', '$schema', '$id', 'default'];

/**
 * Every rule of strict mode a schema can break, as paths: the root is an object and not a
 * union, every object lists all its properties as required and forbids others, and nothing
 * is optional (nullable is spelt as a type array with "null").
 */
function strictModeViolations(schema: unknown, at = '#'): string[] {
  const problems: string[] = [];
  if (at === '#') {
    const root = schema as Record<string, unknown>;
    if (root.type !== 'object') problems.push('#: the root must be an object');
    if ('anyOf' in root) problems.push('#: the root must not be anyOf');
  }
  const walk = (node: unknown, where: string): void => {
    if (node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      node.forEach((child, i) => walk(child, `${where}/${i}`));
      return;
    }
    const record = node as Record<string, unknown>;
    for (const keyword of UNSUPPORTED) if (keyword in record) problems.push(`${where}: uses ${keyword}`);
    const types = Array.isArray(record.type) ? record.type : [record.type];
    if (types.includes('object') || 'properties' in record) {
      const properties = Object.keys((record.properties as Record<string, unknown> | undefined) ?? {});
      const required = (record.required as string[] | undefined) ?? [];
      if (record.additionalProperties !== false) problems.push(`${where}: additionalProperties must be false`);
      for (const name of properties) if (!required.includes(name)) problems.push(`${where}: property ${name} is not required`);
      for (const name of required) if (!properties.includes(name)) problems.push(`${where}: requires ${name}, which is not a property`);
    }
    if (types.includes('array') && record.items === undefined) problems.push(`${where}: an array needs items`);
    if (record.type === undefined && record.enum === undefined && record.anyOf === undefined && record.$ref === undefined && where !== '#') {
      problems.push(`${where}: has no type`);
    }
    for (const [key, child] of Object.entries(record)) {
      if (key === 'properties' || key === '$defs') {
        for (const [name, sub] of Object.entries(child as Record<string, unknown>)) walk(sub, `${where}/${key}/${name}`);
      } else if (key === 'items' || key === 'anyOf') {
        walk(child, `${where}/${key}`);
      }
    }
  };
  walk(schema, at);
  return problems;
}

describe('strict structured-output schemas', () => {
  it.each(['semantic-review', 'lesson-draft', 'lesson-rerank', 'ask-answer'] as const)('%s satisfies every strict-mode rule', (name) => {
    expect(strictModeViolations(readSchema(name))).toEqual([]);
  });

  it('the walker catches each rule it checks', () => {
    const broken = {
      type: 'object',
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      properties: {
        a: { type: 'string' },
        b: { type: 'object', properties: { c: { type: ['string', 'null'] } }, required: ['c'] },
        d: { type: 'array' },
        e: { allOf: [{ type: 'string' }] },
      },
      required: ['b', 'd', 'e'],
      additionalProperties: false,
    };
    expect(strictModeViolations(broken)).toEqual([
      '#: uses $schema',
      '#: property a is not required',
      '#/properties/b: additionalProperties must be false',
      '#/properties/d: an array needs items',
      '#/properties/e: uses allOf',
      '#/properties/e: has no type',
    ]);
    expect(strictModeViolations({ anyOf: [] })).toEqual(['#: the root must be an object', '#: the root must not be anyOf']);
  });

  it('nullable fields are type arrays with null, still required', () => {
    const finding = (readSchema('semantic-review').properties as Record<string, { items: { properties: Record<string, { type: unknown }>; required: string[] } }>).findings!.items;
    expect(finding.properties.file!.type).toEqual(['string', 'null']);
    expect(finding.properties.line!.type).toEqual(['integer', 'null']);
    expect(finding.required).toContain('file');
    expect(finding.required).toContain('line');
  });
});
