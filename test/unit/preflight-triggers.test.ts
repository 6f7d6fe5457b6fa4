import { describe, expect, it } from 'vitest';
import { patchFiles } from '../../src/agent/input.js';
import { triggerPath } from '../../src/preflight/query.js';
import { commandMatches, matchTriggers, simpleCommands } from '../../src/preflight/triggers.js';

const row = (fields: Partial<{ tools: string[]; paths: string[]; commands: string[] }>) => ({ tools: [], paths: [], commands: [], ...fields });
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

  it('does not fire on the right tool with an unrelated file, nor on an unlisted tool', () => {
    expect(matchTriggers(manifest, action({ tool: 'Edit', paths: ['src/index.ts'] }))).toBeUndefined();
    expect(matchTriggers(manifest, action({ tool: 'Read', paths: ['package.json'] }))).toBeUndefined();
  });

  it('fires on paths alone when the lesson names no tools, and on the tool alone when it names only tools', () => {
    expect(matchTriggers(row({ paths: ['**/.env*'] }), action({ tool: 'Read', paths: ['config/.env.local'] }))).toBeDefined();
    expect(matchTriggers(row({ tools: ['NotebookEdit'] }), action({ tool: 'NotebookEdit' }))).toEqual({ reasons: ['tool NotebookEdit'], kinds: ['tool'] });
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
