import { describe, expect, it } from 'vitest';
import { patchFiles, triggerPath } from '../../src/hooks/input.js';
import { commandMatches, globToRegExp, matchTriggers, pathMatches, simpleCommands } from '../../src/preflight/triggers.js';

const row = (fields: Partial<{ tools: string[]; paths: string[]; commands: string[] }>) => ({ tools: [], paths: [], commands: [], ...fields });
const action = (fields: Partial<{ tool: string; paths: string[]; command: string }>) => ({
  task: '',
  project: null,
  tool: fields.tool ?? null,
  paths: fields.paths ?? [],
  command: fields.command ?? null,
});

describe('path globs', () => {
  it('** crosses directories and may match none; * stays in one segment', () => {
    expect(pathMatches('**/package.json', 'package.json')).toBe(true);
    expect(pathMatches('**/package.json', 'apps/web/package.json')).toBe(true);
    expect(pathMatches('**/package.json', 'package.json.bak')).toBe(false);
    expect(pathMatches('migrations/**', 'migrations/2026/01.sql')).toBe(true);
    expect(pathMatches('.github/workflows/*.yml', '.github/workflows/ci.yml')).toBe(true);
    expect(pathMatches('.github/workflows/*.yml', '.github/workflows/sub/ci.yml')).toBe(false);
    expect(pathMatches('src/**/*.{ts,tsx}', 'src/a/b.tsx')).toBe(true);
    expect(pathMatches('src/?.ts', 'src/a.ts')).toBe(true);
  });

  it('a glob without a slash matches the file name at any depth, as in .gitignore', () => {
    expect(pathMatches('CHANGELOG.md', 'packages/x/CHANGELOG.md')).toBe(true);
    expect(pathMatches('*.tf', 'infra/main.tf')).toBe(true);
    expect(pathMatches('Dockerfile', 'Dockerfile.dev')).toBe(false);
  });

  it('escapes regular-expression characters', () => {
    expect(globToRegExp('a+b(c).md').test('a+b(c).md')).toBe(true);
    expect(globToRegExp('a+b(c).md').test('aab(c)xmd')).toBe(false);
  });
});

describe('command globs', () => {
  it('split compound commands and drop env assignments, sudo and env', () => {
    expect(simpleCommands('CI=1 npm test && sudo npm publish --tag next; echo done | tee x')).toEqual(['npm test', 'npm publish --tag next', 'echo done', 'tee x']);
  });

  it('match any simple command of the line, from its start', () => {
    expect(commandMatches('npm publish*', 'npm run build && npm publish --access public')).toBe(true);
    expect(commandMatches('npm publish*', 'NPM_TOKEN=x sudo npm publish')).toBe(true);
    expect(commandMatches('git push --force*', 'git push --force-with-lease origin main')).toBe(true);
    expect(commandMatches('npm publish*', 'echo npm publish')).toBe(false);
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
