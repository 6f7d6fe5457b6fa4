import { describe, expect, it } from 'vitest';
import { buildQuery } from '../../src/preflight/query.js';
import { VOCABULARY } from '../../src/preflight/vocabulary.js';
import { stem, terms, words } from '../../src/preflight/text.js';
import { commandMatches, globToRegExp, pathMatches } from '../../src/preflight/triggers.js';
import { boundedDistance, expandTerm } from '../../src/preflight/expand.js';
import { taskInput } from '../helpers/preflight.js';

describe('text', () => {
  it('splits on non-alphanumerics, lower-cases, drops one-character words but keeps numbers like 429', () => {
    expect(words('Ship the 2.3.0 release: HTTP 429, e2e!')).toEqual(['ship', 'the', 'release', 'http', '429', 'e2e']);
  });

  it('conflates the inflections a task and a lesson differ by', () => {
    expect(stem('retries')).toBe(stem('retry'));
    expect(stem('retried')).toBe(stem('retry'));
    expect(stem('migrations')).toBe(stem('migration'));
    expect(stem('publishing')).toBe(stem('publish'));
    expect(stem('caching')).toBe(stem('cache'));
    expect(stem('stopped')).toBe(stem('stop'));
    expect(terms('Bumped versions')).toEqual([stem('bump'), stem('version')]);
  });
});

describe('query', () => {
  it('drops stopwords and adds the other words of a synonym group at a lower weight', () => {
    const query = buildQuery(taskInput('ship the new release'), VOCABULARY);
    const task = query.terms.filter((t) => t.from === 'task').map((t) => t.word);
    expect(task).toEqual(['ship', 'release']);
    const publish = query.terms.find((t) => t.term === stem('publish'))!;
    expect(publish.from).toBe('synonym');
    expect(publish.weight).toBeLessThan(1);
  });

  it('matches multi-word synonym phrases only as a phrase', () => {
    const phrase = buildQuery(taskInput('handle too many requests from the api'), VOCABULARY);
    expect(phrase.terms.some((t) => t.term === stem('throttle'))).toBe(true);
    const scattered = buildQuery(taskInput('too few requests, many users'), VOCABULARY);
    expect(scattered.terms.some((t) => t.term === stem('throttle'))).toBe(false);
  });
});

describe('dictionary expansion', () => {
  const dictionary = ['deploy', 'migrat', 'migration', 'publish', 'publisher', 'releas'].sort();

  it('finds the term itself, longer words it starts, and near misspellings', () => {
    const found = expandTerm(dictionary, 'publish').map((e) => `${e.term}:${e.kind}`);
    expect(found).toEqual(['publish:exact', 'publisher:prefix']);
    expect(expandTerm(dictionary, 'reless').map((e) => e.kind)).toEqual(['fuzzy']);
    expect(expandTerm(dictionary, 'xyz')).toEqual([]);
  });

  it('bounds edit distance', () => {
    expect(boundedDistance('release', 'relaese', 2)).toBe(2);
    expect(boundedDistance('release', 'deploy', 2)).toBe(3);
  });
});

describe('trigger globs', () => {
  it('matches paths with ** across folders and * within one', () => {
    expect(pathMatches('**/package.json', 'package.json')).toBe(true);
    expect(pathMatches('**/package.json', 'packages/cli/package.json')).toBe(true);
    expect(pathMatches('**/migrations/**', 'db/migrations/001_add.sql')).toBe(true);
    expect(pathMatches('db/migrate/**', 'db/migrate/x/y.rb')).toBe(true);
    expect(pathMatches('db/migrate/**', 'app/db/migrate/y.rb')).toBe(false);
    expect(pathMatches('src/*.ts', 'src/a/b.ts')).toBe(false);
    expect(pathMatches('**/.env.*', '.env.production')).toBe(true);
    expect(pathMatches('**/*.{test,spec}.ts', 'src/a.spec.ts')).toBe(true);
    expect(pathMatches('**/nginx*.conf', 'deploy/nginx.conf')).toBe(true);
    expect(pathMatches('**/package.json', 'package.json.bak')).toBe(false);
    expect(pathMatches('.github/workflows/*.yml', '.github/workflows/sub/ci.yml')).toBe(false);
    expect(pathMatches('src/?.ts', 'src/a.ts')).toBe(true);
  });

  it('matches a glob without a slash against the file name in any folder', () => {
    expect(pathMatches('Dockerfile', 'services/api/Dockerfile')).toBe(true);
    expect(pathMatches('*.tfstate', 'infra/prod.tfstate')).toBe(true);
    expect(pathMatches('Dockerfile', 'Dockerfile.dev')).toBe(false);
  });

  it('matches a --path glob against the trigger it would select', () => {
    expect(pathMatches('**/migrations/**', 'db/migrations/*.sql')).toBe(true);
  });

  it('matches commands as whole-string globs where * spans anything, or one part of a compound command', () => {
    expect(commandMatches('npm publish*', 'npm publish --access public')).toBe(true);
    expect(commandMatches('git push*--force*', 'git push origin main --force-with-lease')).toBe(true);
    expect(commandMatches('git add .', 'git add .')).toBe(true);
    expect(commandMatches('git add .', 'git add ./src')).toBe(false);
    expect(commandMatches('npm publish*', 'cd packages/cli && npm publish')).toBe(true);
    expect(commandMatches('npm publish*', 'echo npm publish')).toBe(false);
  });

  it('escapes regular-expression characters', () => {
    expect(globToRegExp('a+b(c).md').test('a+b(c).md')).toBe(true);
    expect(globToRegExp('a+b(c).md').test('aab(c)xmd')).toBe(false);
  });
});
