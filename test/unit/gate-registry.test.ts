import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GATE_REGISTRY } from '../../src/guard/gates/registry.js';
import { DEFAULT_POLICY, GATES, STAGES } from '../../src/policy/policy.js';
import { PACKAGE_ROOT } from '../helpers/repo.js';

const readJson = (rel: string) => JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, rel), 'utf8'));
const names = GATE_REGISTRY.map((gate) => gate.name);

// The registry is the list of gates; these are the copies that cannot import it, in order.
describe('the gate registry', () => {
  it('names the policy module’s gates, in the same order', () => {
    expect(names).toEqual([...GATES]);
  });

  it('has a default level for every stage of each gate in the policy module', () => {
    expect(Object.keys(DEFAULT_POLICY.gates)).toEqual(names);
    for (const gate of GATE_REGISTRY) expect(Object.keys(DEFAULT_POLICY.gates[gate.name]), gate.name).toEqual([...STAGES]);
  });

  it('is the policy schema’s list of gates, and the schema takes no other', () => {
    const gates = readJson('schemas/policy.schema.json').properties.gates;
    expect(Object.keys(gates.properties)).toEqual(names);
    expect(gates.additionalProperties).toBe(false);
  });

  it('is the shipped policy file’s list of gates, with the default levels', () => {
    const gates = readJson('policy/workflow-policy.json').gates as Record<string, unknown>;
    expect(Object.keys(gates)).toEqual(names);
    for (const gate of GATE_REGISTRY) expect(gates[gate.name], gate.name).toEqual(DEFAULT_POLICY.gates[gate.name]);
  });

  it('takes each gate from its own file, named after the gate', async () => {
    for (const gate of GATE_REGISTRY) {
      const module = (await import(/* @vite-ignore */ `../../src/guard/gates/${gate.name}.js`)) as Record<string, unknown>;
      expect(Object.values(module), gate.name).toContain(gate);
    }
  });
});
