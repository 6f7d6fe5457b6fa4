import { describe, expect, it } from 'vitest';
import { rankByKeywords } from '../../src/hooks/engine.js';
import { commandMatches, globToRegExp, keywordMatches, matchTriggers, pathMatches, simpleCommands } from '../../src/hooks/triggers.js';
import { patchFiles, triggerPath } from '../../src/hooks/input.js';
import { emptyTriggers } from '../../src/lesson/model.js';
import type { IndexEntry } from '../../src/index/build.js';

const triggers = (fields: Partial<ReturnType<typeof emptyTriggers>>) => ({ ...emptyTriggers(), ...fields });

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
  it('split compound commands and drop env assignments and sudo', () => {
    expect(simpleCommands('CI=1 npm test && sudo npm publish --tag next; echo done | tee x')).toEqual(['npm test', 'npm publish --tag next', 'echo done', 'tee x']);
  });

  it('match any simple command of the line, from its start', () => {
    expect(commandMatches('npm publish*', 'npm run build && npm publish --access public')).toBe(true);
    expect(commandMatches('git push --force*', 'git push --force-with-lease origin main')).toBe(true);
    expect(commandMatches('npm publish*', 'echo npm publish')).toBe(false);
    expect(commandMatches('git push --force*', 'git push origin main')).toBe(false);
  });
});

describe('matchTriggers', () => {
  const manifest = triggers({ tools: ['Edit', 'Bash'], paths: ['**/package.json'], commands: ['npm publish*'], keywords: ['release'] });

  it('fires on a matching path or command with a listed tool, naming why', () => {
    expect(matchTriggers(manifest, { tool: 'Edit', paths: ['package.json'] })).toEqual({ matched: true, reasons: ['tool Edit', 'path package.json ~ **/package.json'] });
    expect(matchTriggers(manifest, { tool: 'bash', command: 'npm publish' })).toEqual({ matched: true, reasons: ['tool bash', 'command ~ npm publish*'] });
  });

  it('does not fire on the right tool with an unrelated file, nor on an unlisted tool', () => {
    expect(matchTriggers(manifest, { tool: 'Edit', paths: ['src/index.ts'] }).matched).toBe(false);
    expect(matchTriggers(manifest, { tool: 'Read', paths: ['package.json'] }).matched).toBe(false);
  });

  it('fires on paths alone when the lesson names no tools, and on the tool alone when it names only tools', () => {
    expect(matchTriggers(triggers({ paths: ['**/.env*'] }), { tool: 'Read', paths: ['config/.env.local'] }).matched).toBe(true);
    expect(matchTriggers(triggers({ tools: ['NotebookEdit'] }), { tool: 'NotebookEdit' }).matched).toBe(true);
  });

  it('never fires on keywords alone', () => {
    expect(matchTriggers(triggers({ keywords: ['release'] }), { tool: 'Bash', command: 'release' }).matched).toBe(false);
  });

  it('keywords match whole words, ignoring case', () => {
    expect(keywordMatches('version bump', 'Do the Version Bump now')).toBe(true);
    expect(keywordMatches('tag', 'update the tagline')).toBe(false);
  });
});

describe('tool inputs', () => {
  it('paths become repo-relative inside the repository and stay absolute outside it', () => {
    expect(triggerPath('/repo', '/repo/sub', '/repo/apps/package.json')).toBe('apps/package.json');
    expect(triggerPath('/repo', '/repo/sub', 'x.ts')).toBe('sub/x.ts');
    expect(triggerPath('/repo', '/repo', '/elsewhere/package.json')).toBe('/elsewhere/package.json');
  });

  it('reads the files of an apply_patch body', () => {
    expect(patchFiles('*** Begin Patch\n*** Update File: package.json\n@@\n*** Add File: docs/a.md\n*** End Patch')).toEqual(['package.json', 'docs/a.md']);
  });
});

function entry(fields: Partial<IndexEntry> & { id: string }): IndexEntry {
  return {
    path: `lessons/cases/${fields.id}.md`,
    title: '',
    level: 'case',
    status: 'validated',
    severity: 'medium',
    tags: [],
    confidence: 3,
    transferability: 3,
    source: 'curated',
    occurrences: 1,
    created_at: null,
    last_seen: null,
    last_validated_at: null,
    summary: '',
    project: null,
    checklist: [],
    triggers: emptyTriggers(),
    source_case_ids: [],
    source_pattern_ids: [],
    applications: [],
    duplicate_of: null,
    superseded_by: null,
    retired_reason: null,
    promoted_from: [],
    promoted_into: [],
    ...fields,
  };
}

describe('selectLessons keyword ranking', () => {
  const entries = [
    entry({ id: 'a-release', title: 'Release tagged before the version bump merged', tags: ['release'], severity: 'high' }),
    entry({ id: 'b-migration', title: 'Column dropped before the deploy', tags: ['migration'], triggers: triggers({ keywords: ['drop column'] }) }),
    entry({ id: 'c-retired', title: 'Release retired lesson about version bumps', tags: ['release'], status: 'retired' }),
  ];

  it('ranks matching lessons, says why, and never selects retired ones', () => {
    const selected = rankByKeywords(entries, { task: 'prepare the release and bump the version' });
    expect(selected.map((s) => s.id)).toEqual(['a-release']);
    expect(selected[0]).toMatchObject({ score: 7.5, reasons: ['title: release, version, bump'] });
  });

  it('a keyword phrase alone selects; a task that matches nothing selects nothing', () => {
    expect(rankByKeywords(entries, { task: 'we need to drop column email' }).map((s) => s.id)).toEqual(['b-migration']);
    expect(rankByKeywords(entries, { task: 'refactor the css grid' })).toEqual([]);
    const weak = [entry({ id: 'd-weak', title: 'Unrelated heading', summary: 'grid layout breaks on refactor' })];
    expect(rankByKeywords(weak, { task: 'refactor the css grid' })).toEqual([]);
  });
});
