import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GATE_REGISTRY } from '../../src/guard/gates/registry.js';
import { DEFAULT_POLICY, GATES, STAGES } from '../../src/policy/policy.js';
import { PACKAGE_ROOT, tempDir } from '../helpers/repo.js';

const readJson = (root: string, rel: string) => JSON.parse(fs.readFileSync(path.join(root, rel), 'utf8'));
const names = GATE_REGISTRY.map((gate) => gate.name);

/** What scripts/build-gates.mjs reads and writes, copied to a directory of their own (with the development dependencies it runs). */
function gateSources(): string {
  const root = tempDir('lessons-gates-');
  for (const dir of ['scripts', 'src', 'schemas', 'policy']) fs.cpSync(path.join(PACKAGE_ROOT, dir), path.join(root, dir), { recursive: true });
  fs.symlinkSync(path.join(PACKAGE_ROOT, 'node_modules'), path.join(root, 'node_modules'));
  return root;
}

const buildGates = (root: string, ...args: string[]) => spawnSync(process.execPath, [path.join(root, 'scripts/build-gates.mjs'), ...args], { encoding: 'utf8' });

// The registry is the list of gates; these are the copies that cannot import it, in order.
describe('the gate registry', () => {
  it('names the policy module’s gates, in the same order, with each gate’s own default levels', () => {
    expect(names).toEqual([...GATES]);
    expect(Object.keys(DEFAULT_POLICY.gates)).toEqual(names);
    for (const gate of GATE_REGISTRY) {
      expect(Object.keys(gate.levels), gate.name).toEqual([...STAGES]);
      expect(DEFAULT_POLICY.gates[gate.name], gate.name).toEqual(gate.levels);
    }
  });

  it('is the policy schema’s list of gates, and the schema takes no other', () => {
    const gates = readJson(PACKAGE_ROOT, 'schemas/policy.schema.json').properties.gates;
    expect(Object.keys(gates.properties)).toEqual(names);
    expect(gates.additionalProperties).toBe(false);
  });

  it('is the shipped policy file’s list of gates, with the default levels', () => {
    const gates = readJson(PACKAGE_ROOT, 'policy/workflow-policy.json').gates as Record<string, unknown>;
    expect(Object.keys(gates)).toEqual(names);
    for (const gate of GATE_REGISTRY) expect(gates[gate.name], gate.name).toEqual(gate.levels);
  });

  it('takes each gate from its own file, named after the gate', async () => {
    for (const gate of GATE_REGISTRY) {
      const module = (await import(/* @vite-ignore */ `../../src/guard/gates/${gate.name}.js`)) as Record<string, unknown>;
      expect(Object.values(module), gate.name).toContain(gate);
    }
  });

  it('is what the generated copies say (build-gates --check), and --check fails when a gate’s levels change until they are written again', () => {
    expect(buildGates(PACKAGE_ROOT, '--check').status).toBe(0);
    const root = gateSources();
    const quality = path.join(root, 'src/guard/gates/quality.ts');
    fs.writeFileSync(quality, fs.readFileSync(quality, 'utf8').replace("defaultLevels('off', 'off', 'warn')", "defaultLevels('off', 'warn', 'block')"));
    const stale = buildGates(root, '--check');
    expect(stale.status).toBe(1);
    // The schema names the gates, not their levels.
    expect(stale.stderr.trim().split('\n')).toEqual(['src/policy/gates.ts', 'policy/workflow-policy.json'].map((file) => `${file} is not what the gate registry (src/guard/gates/) makes: run \`node scripts/build-gates.mjs\``));
    expect(buildGates(root).status).toBe(0);
    expect(readJson(root, 'policy/workflow-policy.json').gates.quality).toEqual({ 'pre-commit': 'off', 'pre-push': 'warn', ci: 'block', final: 'warn' });
    expect(buildGates(root, '--check').status).toBe(0);
  });

  it('takes a new gate from its file and one registry line: the script writes it into the policy module, the schema and the shipped policy', () => {
    const root = gateSources();
    const gates = path.join(root, 'src/guard/gates');
    fs.writeFileSync(
      path.join(gates, 'todo-marker.ts'),
      [
        "import { defaultLevels, type GateCheck, type GateDeclaration } from './gate.js';",
        "const todoMarkerGate: GateCheck = (input) => input.changedPaths.filter((file) => file.includes('TODO')).map((file) => ({ rule: 'todo', severity: 'warning' as const, file, message: 'a TODO file' }));",
        "export const todoMarker: GateDeclaration = { name: 'todo-marker', levels: defaultLevels('off', 'warn', 'block'), description: 'A changed file named TODO.', check: todoMarkerGate };",
        '',
      ].join('\n'),
    );
    const registry = path.join(gates, 'registry.ts');
    const text = fs.readFileSync(registry, 'utf8').replace("import { schema } from './schema.js';", "import { schema } from './schema.js';\nimport { todoMarker } from './todo-marker.js';");
    fs.writeFileSync(registry, text.replace('retrieval, policy]', 'retrieval, policy, todoMarker]'));
    expect(buildGates(root).status).toBe(0);
    expect(fs.readFileSync(path.join(root, 'src/policy/gates.ts'), 'utf8')).toContain("'todo-marker': { 'pre-commit': 'off', 'pre-push': 'warn', ci: 'block', final: 'warn' },");
    expect(readJson(root, 'schemas/policy.schema.json').properties.gates.properties['todo-marker']).toEqual({ description: 'A changed file named TODO.', $ref: '#/$defs/gateLevels' });
    expect(Object.keys(readJson(root, 'policy/workflow-policy.json').gates)).toEqual([...names, 'todo-marker']);
  });
});
