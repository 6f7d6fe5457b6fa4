import { describe, expect, it } from 'vitest';
import { patchFiles } from '../../src/agent/input.js';
import { triggerPath } from '../../src/preflight/query.js';
import { terms } from '../../src/search/text.js';
import { commandMatches, matchTriggers, simpleCommands, toolAllows } from '../../src/search/triggers.js';

const row = (fields: Partial<{ tools: string[]; paths: string[]; commands: string[]; phrases: string[][] }>) => ({ tools: [], paths: [], commands: [], phrases: [], ...fields });
const action = (fields: Partial<{ tool: string; paths: string[]; command: string }>) => ({
  task: '',
  project: null,
  tool: fields.tool ?? null,
  paths: fields.paths ?? [],
  command: fields.command ?? null,
});

describe('command globs', () => {
  it('split compound commands and drop env assignments, sudo and env', () => {
    expect(simpleCommands('CI=1 npm test && sudo npm publish --tag next; echo done | tee x')).toEqual(['npm test', 'npm publish --tag next', 'echo done', 'tee x']);
  });

  it('match a simple command behind environment assignments or sudo', () => {
    expect(commandMatches('npm publish*', 'NPM_TOKEN=x sudo npm publish')).toBe(true);
    expect(commandMatches('git push --force*', 'git push origin main')).toBe(false);
  });
});

describe('matchTriggers', () => {
  const manifest = row({ tools: ['Edit', 'Bash'], paths: ['**/package.json'], commands: ['npm publish*'] });

  it('fires on a matching path or command with a listed tool (any case), naming why', () => {
    expect(matchTriggers(manifest, action({ tool: 'Edit', paths: ['package.json'] }))).toEqual({ reasons: ['path **/package.json matches package.json'], kinds: ['path'] });
    expect(matchTriggers(manifest, action({ tool: 'bash', command: 'npm publish' }))).toEqual({ reasons: ['command matches npm publish*'], kinds: ['command'] });
  });

  it('does not fire on the right tool with an unrelated file, nor on a tool of another kind (a Read is not an Edit)', () => {
    expect(matchTriggers(manifest, action({ tool: 'Edit', paths: ['src/index.ts'] }))).toBeUndefined();
    expect(matchTriggers(manifest, action({ tool: 'Read', paths: ['package.json'] }))).toBeUndefined();
  });

  it('a path alone qualifies when no tool is named, even for a lesson that lists tools', () => {
    expect(matchTriggers(manifest, action({ paths: ['packages/cli/package.json'] }))?.kinds).toEqual(['path']);
    expect(matchTriggers(row({ paths: ['**/.env*'] }), action({ tool: 'Read', paths: ['config/.env.local'] }))).toBeDefined();
  });

  it('a command alone qualifies when no tool is named', () => {
    expect(matchTriggers(manifest, action({ command: 'CI=1 npm publish --tag next' }))?.kinds).toEqual(['command']);
  });

  it('a keyword phrase alone qualifies, found in order in the task, command or path words', () => {
    const wipe = row({ tools: ['Bash'], phrases: [['rm', 'rf']] });
    expect(matchTriggers(wipe, action({ tool: 'Bash', command: 'rm -rf "$OUT"/*' }), terms('rm -rf "$OUT"/*'))).toEqual({ reasons: ['keyword "rm rf"'], kinds: ['keyword'] });
    expect(matchTriggers(wipe, action({}), terms('clean the build folder with rm -rf'))?.kinds).toEqual(['keyword']);
    expect(matchTriggers(wipe, action({}), terms('rf then rm'))).toBeUndefined();
  });

  it('tools never qualify alone: a lesson that names only tools matches no call', () => {
    expect(matchTriggers(row({ tools: ['NotebookEdit'] }), action({ tool: 'NotebookEdit' }))).toBeUndefined();
    expect(matchTriggers(row({ tools: ['Bash'] }), action({ tool: 'Bash', command: 'ls' }))).toBeUndefined();
  });

  it('matches tool families: MultiEdit, Write and apply_patch are edits; shell and exec_command are Bash', () => {
    for (const tool of ['MultiEdit', 'Write', 'apply_patch', 'edit']) expect(matchTriggers(manifest, action({ tool, paths: ['package.json'] })), tool).toBeDefined();
    for (const tool of ['shell', 'exec_command']) expect(matchTriggers(manifest, action({ tool, command: 'npm publish' })), tool).toBeDefined();
    expect(toolAllows(['Edit'], 'Read')).toBe(false);
    expect(toolAllows(['Edit'], null)).toBe(true);
  });
});

describe('tool inputs of agent hooks', () => {
  it('paths become repo-relative inside the repository and stay absolute outside it', () => {
    expect(triggerPath('/repo', '/repo/sub', '/repo/apps/package.json')).toBe('apps/package.json');
    expect(triggerPath('/repo', '/repo/sub', 'x.ts')).toBe('sub/x.ts');
    expect(triggerPath('/repo', '/repo', '/elsewhere/package.json')).toBe('/elsewhere/package.json');
  });

  it('reads the files of an apply_patch body', () => {
    expect(patchFiles('*** Begin Patch\n*** Update File: package.json\n@@\n*** Add File: docs/a.md\n*** End Patch')).toEqual(['package.json', 'docs/a.md']);
  });
});
