import { describe, expect, it } from 'vitest';
import { buildQuery } from '../../src/preflight/query.js';
import { VOCABULARY } from '../../src/search/vocabulary.js';
import { parseAcronyms } from '../../src/search/acronyms.js';
import { indexTerms, numeronym, root, stem, terms, words } from '../../src/search/text.js';
import { commandMatches } from '../../src/search/triggers.js';
import { globToRegExp, pathMatches, pathsMatcher } from '../../src/util/glob.js';
import { boundedDistance, expandTerm } from '../../src/search/expand.js';
import { taskInput } from '../helpers/preflight.js';
import { seededRandom } from '../helpers/random.js';

describe('text', () => {
  it('splits on non-alphanumerics, lower-cases, drops one-character words but keeps numbers like 429', () => {
    expect(words('Ship the 2.3.0 release: HTTP 429, e2e!')).toEqual(['ship', 'the', 'release', 'http', '429', 'e2e']);
  });
  it('splits ASCII text as the Unicode letter and digit classes do, and keeps letters of other scripts', () => {
    const unicode = (text: string): string[] => text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((word) => word.length >= 2);
    const random = seededRandom(11);
    for (let n = 0; n < 500; n++) {
      const text = Array.from({ length: 40 }, () => String.fromCharCode(Math.floor(random() * 128))).join('');
      expect(words(text)).toEqual(unicode(text));
    }
    expect(words('Größe der Café-Datei: naïve 東京 ½ Ⅻ')).toEqual(unicode('Größe der Café-Datei: naïve 東京 ½ Ⅻ'));
    expect(words('Größe der Café-Datei')).toEqual(['größe', 'der', 'café', 'datei']);
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
  it('drops stopwords and keeps each content word once', () => {
    const query = buildQuery(taskInput('ship the new release, ship it'), VOCABULARY);
    expect(query.terms.map((t) => t.word)).toEqual(['ship', 'release']);
  });

  it('takes the command and the paths as query text too, after the task', () => {
    const query = buildQuery(taskInput('clean up', { command: 'rm -rf "$OUT"/*', paths: ['db/migrate/add_index.rb'] }), VOCABULARY);
    expect(query.terms.filter((t) => t.from === 'context').map((t) => t.word)).toEqual(['rm', 'rf', 'db', 'migrate']);
    // The file's own name is its subject; its folders only say where it lives.
    expect(query.terms.filter((t) => t.from === 'file').map((t) => t.word)).toEqual(['index', 'rb']);
    expect(query.terms.find((t) => t.word === 'clean')?.from).toBe('task');
    expect(query.sequence).toContain(stem('rf'));
  });
});

describe('morphology', () => {
  it('conflates a verb with its derived nouns: memoize, memoization; localize, localization; deploy, deployment', () => {
    expect(stem('memoization')).toBe(stem('memoize'));
    expect(stem('memoizing')).toBe(stem('memoize'));
    expect(stem('localization')).toBe(stem('localize'));
    expect(stem('localisation')).toBe(stem('localize'));
    expect(stem('deployments')).toBe(stem('deploy'));
    expect(stem('migration')).toBe(stem('migrate'));
    expect(stem('nation')).not.toBe(stem('nate'));
  });

  it('gives other parts of speech of a word one root: preemptible, preemption, preemptive; consistent, consistency', () => {
    expect(root(stem('preemptible'))).toBe(root(stem('preemption')));
    expect(root(stem('preemptive'))).toBe(root(stem('preempt')));
    expect(root(stem('consistency'))).toBe(root(stem('consistent')));
    expect(root(stem('availability'))).toBe(root(stem('available')));
    // A short stem keeps its ending: "version" is not "verse", "session" not "sess".
    expect(root(stem('version'))).not.toBe(root(stem('verse')));
    expect(root(stem('session'))).toBe(stem('session'));
  });

  it('runs two task words together when the corpus may spell them as one: time zone, roll out', () => {
    const query = buildQuery(taskInput('fix the time zone handling, then roll out'), VOCABULARY);
    expect(query.terms.find((t) => t.word === 'time')?.joined).toContain(stem('timezone'));
    expect(query.terms.find((t) => t.word === 'zone')?.joined).toContain(stem('timezone'));
    // "out" is a stopword, so only "roll" carries the compound.
    expect(query.terms.find((t) => t.word === 'roll')?.joined).toContain(stem('rollout'));
  });

  it('indexes a long word with its numeronym, so i18n, l10n and k8s find the words they stand for', () => {
    expect(numeronym('internationalization')).toBe('i18n');
    expect(numeronym('localization')).toBe('l10n');
    expect(numeronym('kubernetes')).toBe('k8s');
    expect(numeronym('deploy')).toBeUndefined();
    expect(indexTerms('Kubernetes localization')).toEqual([stem('kubernetes'), 'k8s', stem('localization'), 'l10n']);
  });
  it("indexes a phrase of the acronym table under its acronym too, and a task's phrase looks the acronym up", () => {
    const acronyms = parseAcronyms('ci\tcontinuous integration\ndst\tdaylight savings time\nbad\n');
    // Each acronym follows its phrase's first word (and that word's numeronym, c8s).
    expect(indexTerms('Continuous integration broke on daylight saving time', acronyms)).toEqual(
      [stem('continuous'), 'c8s', 'ci', stem('integration'), 'i9n', stem('broke'), 'on', stem('daylight'), 'dst', stem('saving'), stem('time')],
    );
    // Without the table, or with the words apart, nothing is added.
    expect(indexTerms('Continuous integration')).toEqual([stem('continuous'), 'c8s', stem('integration'), 'i9n']);
    expect(indexTerms('continuous delivery and integration', acronyms)).not.toContain('ci');
    // A phrase's one-letter words are left out, as words() leaves them out of the text.
    // The acronym is a term stemmed as a task's word is: a task that writes SaaS meets it.
    const saas = parseAcronyms('saas\tsoftware as a service\n');
    expect(indexTerms('Sold as software as a service', saas)).toContain(stem('saas'));
    expect(buildQuery(taskInput('our SaaS billing'), VOCABULARY, saas).terms.map((t) => t.term)).toContain(stem('saas'));
    const query = buildQuery(taskInput('the continuous integration cache'), VOCABULARY, acronyms);
    const joined = Object.fromEntries(query.terms.map((t) => [t.word, t.joined]));
    expect(joined.continuous).toContain('ci');
    expect(joined.integration).toContain('ci');
    expect(joined.cache).not.toContain('ci');
    // Only task words: a command's or a path's words match as spelt.
    expect(buildQuery({ ...taskInput(''), command: 'continuous integration' }, VOCABULARY, acronyms).terms.every((t) => !t.joined.includes('ci'))).toBe(true);
  });
});

describe('dictionary expansion', () => {
  const dictionary = ['deploy', 'deploybot', 'migrat', 'migration', 'preemption', 'publish', 'publisher', 'releas'].sort();

  it('finds the term itself, other forms of the same word, longer words it starts, and near misspellings', () => {
    expect(expandTerm(dictionary, 'publish').map((e) => `${e.term}:${e.kind}`)).toEqual(['publish:exact', 'publisher:morph']);
    expect(expandTerm(dictionary, 'deploy').map((e) => `${e.term}:${e.kind}`)).toEqual(['deploy:exact', 'deploybot:prefix']);
    // Same root, though neither word starts the other.
    expect(expandTerm(dictionary, stem('preemptible')).map((e) => `${e.term}:${e.kind}`)).toEqual(['preemption:morph']);
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

  it('answers for a whole file list what pathMatches answers for each file', () => {
    const files = ['package.json', 'packages/cli/package.json', 'db/migrations/001_add.sql', 'services/api/Dockerfile', 'db/migrations/*.sql', 'src/a.spec.ts', '.env.production'];
    const globs = ['**/package.json', 'Dockerfile', '**/migrations/**', '**/db/migrations/002_drop.sql', '*.sql', 'src/*.ts', 'src/a/*.ts', '**/.env.*', 'README.md', '**/*.{test,spec}.ts', 'db/*'];
    const matches = pathsMatcher(files);
    const some = (list: string[], glob: string): boolean => list.some((file) => pathMatches(glob, file));
    for (const glob of globs) {
      expect(matches(glob), glob).toBe(some(files, glob));
      // Without the file whose path is itself a glob, only the files' own paths and names answer.
      expect(pathsMatcher(files.filter((file) => !file.includes('*')))(glob), glob).toBe(some(files.filter((file) => !file.includes('*')), glob));
    }
    // Only the --path-like file `db/migrations/*.sql` selects this trigger.
    expect(matches('**/db/migrations/002_drop.sql')).toBe(true);
    expect(pathsMatcher(files.filter((file) => !file.includes('*')))('**/db/migrations/002_drop.sql')).toBe(false);
    expect(matches('README.md')).toBe(false);
    expect(pathsMatcher([])('**')).toBe(false);
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
