import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY, type Policy } from '../../src/policy/policy.js';
import { selectFromIndex } from '../../src/preflight/preflight.js';
import { buildQuery } from '../../src/preflight/query.js';
import { rankLessons } from '../../src/preflight/rank.js';
import { readThesaurus } from '../../src/search/update.js';
import { VOCABULARY } from '../../src/search/vocabulary.js';
import type { IndexEntry } from '../../src/index/build.js';
import { indexEntry, NOW, searchIndexOf, searchIndexWithSources, taskInput } from '../helpers/preflight.js';

const CORPUS: IndexEntry[] = [
  indexEntry({
    id: 'case-version-bump-missed-manifest',
    title: 'Version bump missed the plugin manifest',
    severity: 'high',
    tags: ['release', 'versioning', 'manifest'],
    summary: 'The release bumped package.json but not plugin.json.',
    checklist: ['Every manifest that carries the version is updated in the same commit.'],
    triggers: { tools: ['Edit', 'Bash'], paths: ['**/package.json', '**/plugin.json'], commands: ['npm publish*'], keywords: ['version bump'] },
    promoted_into: ['pattern-version-in-one-place'],
  }),
  indexEntry({
    id: 'case-release-notes-missed-breaking-change',
    title: 'Release notes left out a breaking change',
    severity: 'low',
    tags: ['changelog'],
    summary: 'A renamed flag was not in the release notes.',
  }),
  indexEntry({
    id: 'pattern-version-in-one-place',
    level: 'pattern',
    status: 'canonical',
    title: 'Keep the release version in one place',
    tags: ['release', 'versioning'],
    summary: 'One file is the source of the version; the release step writes the others.',
    checklist: ['Name the single source of the version.'],
    promoted_from: ['case-version-bump-missed-manifest'],
    promoted_into: ['principle-single-source-of-truth'],
  }),
  indexEntry({
    id: 'principle-single-source-of-truth',
    level: 'principle',
    title: 'Every fact has a single source of truth',
    tags: ['architecture'],
    summary: 'Derived copies are generated from one source, never edited by hand.',
    promoted_from: ['pattern-version-in-one-place'],
  }),
  indexEntry({
    id: 'case-not-null-column-locked-table',
    title: 'Adding a NOT NULL column locked the users table',
    severity: 'critical',
    tags: ['database', 'migration'],
    summary: 'A migration rewrote the whole table under an exclusive lock.',
    triggers: { tools: ['Edit', 'Write', 'Bash'], paths: ['**/migrations/**'], commands: ['npx prisma migrate*'] },
  }),
  indexEntry({
    id: 'case-old-release-checklist',
    title: 'Release version bump checklist for the old pipeline',
    status: 'retired',
    retired_reason: 'the pipeline is gone',
    tags: ['release', 'versioning'],
    triggers: { paths: ['**/package.json'] },
  }),
];

const policy: Policy = DEFAULT_POLICY;
const ids = (task: string, context = {}, p = policy, corpus = CORPUS): string[] =>
  selectFromIndex(searchIndexOf(corpus), taskInput(task, context), p, NOW).selected.map((lesson) => lesson.id);
/** Both tiers in order: the lessons that apply, then the related ones. */
const surfaced = (task: string, context = {}, p = policy, corpus = CORPUS): string[] => {
  const { selected, related } = selectFromIndex(searchIndexOf(corpus), taskInput(task, context), p, NOW);
  return [...selected, ...related].map((lesson) => lesson.id);
};

describe('preflight selection', () => {
  it('ranks the lessons about the task first, with the pattern and principle they were distilled into', () => {
    expect(ids('bump the version of the plugin manifest')[0]).toBe('case-version-bump-missed-manifest');
    const shown = surfaced('bump the version of the plugin manifest');
    expect(shown.slice(0, 2).sort()).toEqual(['case-version-bump-missed-manifest', 'pattern-version-in-one-place']);
    expect(shown).not.toContain('case-not-null-column-locked-table');
  });

  it('finds lessons through the thesaurus where software text supports the relation: a task that says "delete" finds a lesson that says "erased"', () => {
    const pair = [
      indexEntry({ id: 'case-erased-backup', title: 'Erased the nightly backup bucket' }),
      indexEntry({ id: 'case-copied-backup', title: 'Copied the nightly backup bucket' }),
    ];
    // The team's own writing relates the two words: one lesson uses both.
    const both = indexEntry({ id: 'case-delete-means-erase', title: 'A delete in the console erased the replica too' });
    const thesaurus = new Map([['delete', ['cancel', 'erase']]]);
    const { selected } = selectFromIndex(searchIndexOf([...pair, both], { thesaurus }), taskInput('delete the nightly backup bucket'), policy, NOW);
    expect(selected.map((l) => l.id)).toEqual(['case-erased-backup', 'case-copied-backup']);
    expect(selected[0]!.reasons.join('\n')).toMatch(/"delete" ~ "erased" \(related\)/);
    const without = selectFromIndex(searchIndexOf(pair), taskInput('delete the nightly backup bucket'), policy, NOW).selected;
    expect(without[0]!.score).toBe(without[1]!.score);
  });

  it('reads a thesaurus relation no software text supports as no match: a sense of the word that is not about software creates no evidence', () => {
    const pair = [
      indexEntry({ id: 'case-erased-backup', title: 'Erased the nightly backup bucket' }),
      indexEntry({ id: 'case-copied-backup', title: 'Copied the nightly backup bucket' }),
    ];
    // Neither a Stack Overflow tag synonym nor used together in any lesson here.
    const thesaurus = new Map([['delete', ['cancel', 'erase']]]);
    const { selected, related } = selectFromIndex(searchIndexOf(pair, { thesaurus }), taskInput('delete the nightly backup bucket'), policy, NOW);
    const all = [...selected, ...related];
    expect(all.length).toBeGreaterThan(0);
    expect(all.every((lesson) => !lesson.reasons.join('\n').includes('(related)'))).toBe(true);
    expect(all[0]!.score).toBe(all[1]!.score);
  });

  it('supports a relation the Stack Overflow tag synonyms make, though no lesson uses both words', () => {
    const corpus = [indexEntry({ id: 'case-tls-expired', title: 'TLS certificate expired on the ledger gateway' }), indexEntry({ id: 'case-other', title: 'Copied the nightly backup bucket' })];
    // The relation comes from the thesaurus; only the tag synonyms (ssl: tls) vouch for it.
    const thesaurus = new Map([['ssl', ['tls']]]);
    const { selected, related } = selectFromIndex(searchIndexOf(corpus, { thesaurus }), taskInput('ssl certificate expired'), policy, NOW);
    const found = [...selected, ...related].find((lesson) => lesson.id === 'case-tls-expired');
    expect(found?.reasons.join('\n')).toMatch(/"ssl" ~ "tls" \(related\)/);
  });

  it('lists the next lesson a task names as related however far below a strong first lesson it scores: an entry is one line, related_max bounds them', () => {
    const corpus = [
      indexEntry({ id: 'case-kafka-certificates-expired', title: 'Kafka broker certificates expired mid rotation', tags: ['kafka', 'certificates', 'rotation'], summary: 'Rotating the Kafka broker certificates one broker at a time left clients on the old chain.', checklist: ['Rotate broker certificates with both chains trusted.'] }),
      indexEntry({ id: 'pattern-trust-both-chains', level: 'pattern', status: 'canonical', title: 'Trust the old and the new chain during a rotation', tags: ['tls'], summary: 'Every client trusts both chains until the rotation ends.' }),
      ...['billing exports', 'mobile navigation', 'search ranking', 'dark mode', 'email templates', 'onboarding flow'].map((subject, i) => indexEntry({ id: `case-other-${i}`, title: `Broken ${subject}`, tags: [subject.split(' ')[0]!], summary: `Something about ${subject}.` })),
    ];
    const { selected, related } = selectFromIndex(searchIndexOf(corpus), taskInput('rotate the kafka broker certificates'), policy, NOW);
    expect(selected.map((lesson) => lesson.id)).toEqual(['case-kafka-certificates-expired']);
    expect(related.map((lesson) => lesson.id)).toEqual(['pattern-trust-both-chains']);
    expect(related[0]!.score).toBeLessThan(0.3 * selected[0]!.score);
  });

  it('returns nothing, and never the highest-level lessons, for a task no lesson covers', () => {
    expect(ids('write a haiku for the team newsletter')).toEqual([]);
    expect(ids('tweak the padding of the settings modal')).toEqual([]);
  });

  it('never selects a retired lesson, even when it matches best', () => {
    expect(ids('release version bump checklist for the old pipeline')).not.toContain('case-old-release-checklist');
    expect(ids('', { tool: 'Edit', paths: ['package.json'] })).not.toContain('case-old-release-checklist');
  });

  describe('case filling', () => {
    // Release steps are one subject among many (the floor judges words by how rare they are in the corpus).
    const others = Array.from({ length: 100 }, (_, i) => indexEntry({ id: `case-other-${i}`, title: `Other subject ${i}` }));
    const cases = [
      ...Array.from({ length: 8 }, (_, i) =>
        indexEntry({ id: `case-release-step-${i}`, title: `Release step ${i} went wrong`, tags: ['release'], summary: 'The release broke.' }),
      ),
      ...others,
    ];
    const withPattern = [
      ...cases,
      indexEntry({ id: 'pattern-release-steps', level: 'pattern', title: 'Release steps run in a fixed order', tags: ['release'], promoted_from: cases.slice(0, 8).map((c) => c.id) }),
    ];
    const quotas = (q: Partial<Policy['preflight']['quotas']>): Policy => ({ ...policy, preflight: { ...policy.preflight, quotas: { ...policy.preflight.quotas, ...q } } });
    const levels = (selected: string[]): string[] => selected.map((id) => id.split('-')[0]!);

    it('shows two supporting cases under a shown pattern (the default case quota)', () => {
      const selected = ids('release step went wrong', {}, policy, withPattern);
      expect(levels(selected).sort()).toEqual(['case', 'case', 'pattern']);
    });

    it('fills with cases up to cases_alone when no pattern or principle is selected, and the policy may raise it', () => {
      expect(ids('release step went wrong', {}, policy, cases)).toHaveLength(policy.preflight.quotas.cases_alone);
      expect(policy.preflight.quotas.cases_alone).toBe(5);
      expect(ids('release step went wrong', {}, quotas({ cases_alone: 7 }), cases)).toHaveLength(7);
    });

    it('respects smaller per-level quotas', () => {
      expect(levels(ids('release step went wrong', {}, quotas({ case: 1 }), withPattern)).sort()).toEqual(['case', 'pattern']);
      expect(ids('release step went wrong', {}, quotas({ cases_alone: 1 }), cases)).toHaveLength(2);
    });
  });

  it('shows at most --limit lessons, best first', () => {
    const all = ids('bump the version of the plugin manifest');
    const limited = selectFromIndex(searchIndexOf(CORPUS), taskInput('bump the version of the plugin manifest'), policy, NOW, 1).selected.map((l) => l.id);
    expect(limited).toEqual(all.slice(0, 1));
  });

  it('gives the reasons a lesson was chosen: matched words, tags, triggers', () => {
    const { selected } = selectFromIndex(searchIndexOf(CORPUS), taskInput('bump the plugin version', { paths: ['packages/cli/package.json'], tool: 'Edit' }), policy, NOW);
    const lesson = selected.find((l) => l.id === 'case-version-bump-missed-manifest')!;
    expect(lesson.reasons.join('\n')).toMatch(/"version" in title/);
    expect(lesson.reasons).toContain('tags versioning');
    expect(lesson.reasons).toContain('trigger: path **/package.json matches packages/cli/package.json');
    expect(lesson.checklist).toEqual(['Every manifest that carries the version is updated in the same commit.']);
  });

  it('prefers lessons of the --project named', () => {
    const scoped = [
      indexEntry({ id: 'case-billing-release', title: 'Release of the service failed', tags: ['release'], project: 'billing' }),
      indexEntry({ id: 'case-search-release', title: 'Release of the service failed', tags: ['release'], project: 'search' }),
    ];
    expect(ids('release the service', { project: 'search' }, policy, scoped)[0]).toBe('case-search-release');
    expect(ids('release the service', { project: 'billing' }, policy, scoped)[0]).toBe('case-billing-release');
  });

  it('never shows a lesson of another project than the one in play; unscoped lessons always can be', () => {
    const scoped = [
      indexEntry({ id: 'case-billing-release', title: 'Release of the ledger export failed', tags: ['release'], project: 'billing' }),
      indexEntry({ id: 'case-search-release', title: 'Release of the ledger export failed', tags: ['release'], project: 'search' }),
      indexEntry({ id: 'case-any-release', title: 'Release of the ledger export failed', tags: ['release'] }),
    ];
    expect(ids('release the ledger export', { project: 'search' }, policy, scoped).sort()).toEqual(['case-any-release', 'case-search-release']);
    expect(ids('release the ledger export', { project: 'payments' }, policy, scoped)).toEqual(['case-any-release']);
    expect(ids('release the ledger export', {}, policy, scoped).sort()).toEqual(['case-any-release', 'case-billing-release', 'case-search-release']);
  });

  it("scopes other repositories' lessons by project too: a project a source and this repository share is one project", () => {
    const release = { title: 'Quarterly ledger export to the tax office failed', tags: ['ledger'] };
    const index = searchIndexWithSources(
      [...CORPUS, indexEntry({ id: 'case-billing-release', ...release, project: 'billing' }), indexEntry({ id: 'case-payments-release', ...release, project: 'payments' })].sort((a, b) => (a.id < b.id ? -1 : 1)),
      [
        indexEntry({ id: 'platform:case-any-release', ...release }),
        indexEntry({ id: 'platform:case-billing-release-too', ...release, project: 'billing' }),
        indexEntry({ id: 'platform:case-search-release', ...release, project: 'search' }),
      ],
    );
    const selected = (project: string | null): string[] =>
      selectFromIndex(index, taskInput('the quarterly ledger export for the tax office', { project }), policy, NOW)
        .selected.map((lesson) => lesson.id)
        .sort();
    expect(selected('billing')).toEqual(['case-billing-release', 'platform:case-any-release', 'platform:case-billing-release-too']);
    expect(selected('search')).toEqual(['platform:case-any-release', 'platform:case-search-release']);
    expect(index.meta(index.docCount - 1).project).toBe('search');
  });

  it('ranks what a lesson is: severity, status and source break a tie in text', () => {
    const twins = [
      indexEntry({ id: 'case-a-auto', title: 'Cache key ignored the lockfile', source: 'auto', status: 'candidate' }),
      indexEntry({ id: 'case-b-curated', title: 'Cache key ignored the lockfile', severity: 'high' }),
    ];
    expect(ids('cache key lockfile', {}, policy, twins)).toEqual(['case-b-curated', 'case-a-auto']);
  });

  it('raises lessons whose triggers match the paths and command of the task', () => {
    const plain = ids('change the build');
    const withPath = ids('change the build', { tool: 'Edit', paths: ['db/migrations/001_add.sql'] });
    expect(plain).not.toContain('case-not-null-column-locked-table');
    expect(withPath[0]).toBe('case-not-null-column-locked-table');
  });
});

describe('hook mode (context flags, no task)', () => {
  const hookCorpus = [
    ...['a', 'b', 'c', 'd'].map((x) => indexEntry({ id: `case-dockerfile-${x}`, severity: 'high', triggers: { paths: ['**/Dockerfile'] } })),
    indexEntry({ id: 'case-dockerfile-critical', severity: 'critical', triggers: { paths: ['**/Dockerfile'] } }),
    indexEntry({ id: 'case-force-push', severity: 'critical', triggers: { tools: ['Bash'], commands: ['git push --force*', 'git push -f*'] } }),
    indexEntry({ id: 'case-env-file', severity: 'critical', triggers: { tools: ['Edit', 'Write', 'Bash'], paths: ['**/.env', '**/.env.*'], commands: ['git add -A*'] } }),
    indexEntry({ id: 'case-edit-only', triggers: { tools: ['Edit'] } }),
  ];
  const hook = (context: Parameters<typeof taskInput>[1]): string[] => ids('', context, policy, hookCorpus);

  it('returns at most hook_max lessons, critical first', () => {
    const selected = hook({ tool: 'Write', paths: ['services/api/Dockerfile'] });
    expect(selected).toHaveLength(3);
    expect(selected[0]).toBe('case-dockerfile-critical');
  });

  it('puts a lesson whose own trigger names the call before a critical one that only shares its words', () => {
    const corpus = [
      indexEntry({ id: 'case-namespace-deleted', severity: 'high', title: 'Deleting a namespace took its volumes', triggers: { commands: ['kubectl delete namespace*'] } }),
      ...['a', 'b', 'c'].map((x) => indexEntry({ id: `case-kubectl-delete-${x}`, severity: 'critical', title: `Kubectl delete of the payments sandbox namespace wiped ${x}` })),
      ...Array.from({ length: 20 }, (_, i) => indexEntry({ id: `case-other-${i}`, title: `Other subject ${i}` })),
    ];
    const selected = ids('', { tool: 'Bash', command: 'kubectl delete namespace payments-sandbox' }, policy, corpus);
    expect(selected).toHaveLength(3);
    expect(selected[0]).toBe('case-namespace-deleted');
  });

  it('always returns every critical lesson whose trigger matches, even past hook_max', () => {
    const tight = { ...policy, preflight: { ...policy.preflight, hook_max: 1 } };
    const selected = ids('', { tool: 'Bash', paths: ['.env.production', 'Dockerfile'], command: 'git push --force origin main' }, tight, hookCorpus);
    expect(selected.slice(0, 3).sort()).toEqual(['case-dockerfile-critical', 'case-env-file', 'case-force-push']);
    expect(selected).toHaveLength(3);
  });

  it('matches commands as globs over the whole command or one of its parts', () => {
    expect(hook({ tool: 'Bash', command: 'git push -f origin main' })).toEqual(['case-force-push']);
    expect(hook({ tool: 'Bash', command: 'npm test && git add -A' })).toEqual(['case-env-file']);
    expect(hook({ tool: 'Bash', command: 'git push origin main' })).toEqual([]);
  });

  it('selects a lesson whose keyword phrase occurs in the command, with no command glob', () => {
    const wipe = [...hookCorpus, indexEntry({ id: 'case-wiped-output', severity: 'critical', triggers: { tools: ['Bash'], keywords: ['rm -rf', 'cleanup'] } })];
    expect(ids('', { tool: 'Bash', command: 'rm -rf "$OUT"/*' }, policy, wipe)).toEqual(['case-wiped-output']);
    expect(ids('', { tool: 'Bash', command: 'rm -f "$OUT"/log.txt' }, policy, wipe)).toEqual([]);
    expect(ids('', { tool: 'Read', command: 'rm -rf "$OUT"/*' }, policy, wipe)).toEqual([]);
  });

  it('narrows by the tool a lesson names only when the call names a tool, and never matches on the tool alone', () => {
    expect(hook({ tool: 'Read', paths: ['.env'] })).toEqual([]);
    expect(hook({ tool: 'Edit', paths: ['.env'] })).toEqual(['case-env-file']);
    expect(hook({ tool: 'MultiEdit', paths: ['.env'] })).toEqual(['case-env-file']);
    expect(hook({ paths: ['.env'] })).toEqual(['case-env-file']);
    expect(hook({ tool: 'Edit' })).toEqual([]);
  });
});

describe('relevance floor and field weights', () => {
  // A corpus where each lesson has its own subject, so its words are rare.
  const subjects = ['invoice rounding', 'webhook signature', 'cron overlap', 'avatar upload', 'font loading', 'queue backlog', 'sitemap crawl', 'tenant isolation'];
  const corpus = [
    ...subjects.map((subject, i) => indexEntry({ id: `case-${subject.replace(' ', '-')}`, title: `${subject} went wrong`, summary: `Lesson ${i} about ${subject}.` })),
    ...Array.from({ length: 30 }, (_, i) => indexEntry({ id: `case-other-${i}`, title: `Other subject ${i}` })),
  ];
  const select = (task: string, extras = {}, entries = corpus): string[] =>
    selectFromIndex(searchIndexOf(entries, extras), taskInput(task), policy, NOW).selected.map((l) => l.id);

  it('passes a lesson that matches two informative concepts of the task, in fields that name its subject', () => {
    expect(select('fix the invoice rounding for euros')).toEqual(['case-invoice-rounding']);
  });

  it('never passes a lesson on one shared word, however rare', () => {
    expect(select('make the invoice footer blue')).toEqual([]);
    expect(select('rounding of button corners')).toEqual([]);
  });

  it('does not count a word that most of the corpus shares', () => {
    const everywhere = corpus.map((entry) => ({ ...entry, summary: `${entry.summary} The dashboard broke.` }));
    expect(select('invoice dashboard', {}, everywhere)).toEqual([]);
    expect(select('invoice rounding dashboard', {}, everywhere)).toEqual(['case-invoice-rounding']);
  });

  it('counts a concept once: a thesaurus relative that is another word of the task adds no second concept', () => {
    const thesaurus = new Map([['delete', ['cancel', 'erase']]]);
    const index = searchIndexOf(corpus.concat(indexEntry({ id: 'case-erase-tenant', title: 'Erase a tenant' })), { thesaurus });
    const evidenceFor = (task: string): number =>
      rankLessons(index, buildQuery(taskInput(task), VOCABULARY), policy, NOW).find((r) => index.record(r.doc).id === 'case-erase-tenant')!.evidence;
    // "delete" stands in for "erase" only when the task does not say "erase" itself.
    expect(evidenceFor('delete and erase the tenant')).toBe(evidenceFor('erase the tenant'));
    expect(evidenceFor('delete the tenant')).toBeLessThan(evidenceFor('erase the tenant'));
  });

  it('finds a lesson that spells as one word what the task spells as two, or in another part of speech', () => {
    const entries = [
      ...corpus,
      indexEntry({ id: 'case-timezone-report', title: 'Report cut off at the timezone boundary', summary: 'Lesson about a timezone.' }),
      indexEntry({ id: 'case-preemption-checkpoint', title: 'Preemption lost the checkpoint', summary: 'A spot node was taken back.' }),
    ];
    expect(select('the time zone of the report', {}, entries)).toEqual(['case-timezone-report']);
    const reasons = selectFromIndex(searchIndexOf(entries), taskInput('the time zone of the report'), policy, NOW).selected[0]!.reasons[0];
    expect(reasons).toContain('"time" ~ "timezone" (joined)');
    expect(select('move training to preemptible nodes, keep the checkpoint', {}, entries)).toEqual(['case-preemption-checkpoint']);
    expect(select('move training to other nodes, keep the checkpoint', {}, entries)).toEqual([]);
  });

  it('finds a lesson that writes a phrase by the acronym engineers use for it, and the other way round', () => {
    const entries = [
      ...corpus,
      indexEntry({ id: 'case-ci-cache', title: 'Continuous integration cache went stale', summary: 'Old artifacts were reused.' }),
      indexEntry({ id: 'case-sso-sessions', title: 'SSO sessions expired at midnight', summary: 'Everyone was logged out.' }),
    ];
    // The acronyms are Stack Overflow's (data/thesaurus/stackoverflow-acronyms.tsv): ci, sso.
    expect(select('the CI cache', {}, entries)).toEqual(['case-ci-cache']);
    expect(select('single sign-on sessions', {}, entries)).toEqual(['case-sso-sessions']);
    const reasons = selectFromIndex(searchIndexOf(entries), taskInput('single sign-on sessions'), policy, NOW).selected[0]!.reasons[0];
    expect(reasons).toContain('"single" ~ "sso" (joined)');
    // Initials are an acronym only where the table says so: "cache invalidation" is not "ci".
    expect(select('cache invalidation', {}, entries)).toEqual([]);
  });

  it('relates software words as Stack Overflow tag synonyms do (db, database), beside WordNet', async () => {
    const thesaurus = await readThesaurus();
    const entries = [...corpus, indexEntry({ id: 'case-database-failover', title: 'Database failover dropped writes' })];
    const found = selectFromIndex(searchIndexOf(entries, { thesaurus }), taskInput('db failover lost writes'), policy, NOW).selected;
    expect(found.map((l) => l.id)).toEqual(['case-database-failover']);
    expect(found[0]!.reasons[0]).toContain('"db" ~ "database" (related)');
  });

  it("counts a tool call's file name as what the call is about, and its folders at half", () => {
    const entries = [...corpus, indexEntry({ id: 'case-nginx-configmap-rollout', title: 'Nginx configmap change restarted every proxy' })];
    const hook = (path: string): string[] =>
      selectFromIndex(searchIndexOf(entries), { ...taskInput(''), tool: 'Edit', paths: [path] }, policy, NOW).selected.map((l) => l.id);
    expect(hook('k8s/edge/nginx-configmap.yaml')).toEqual(['case-nginx-configmap-rollout']);
    expect(hook('nginx/configmap/values.yaml')).toEqual([]);
  });

  it("ranks by a call's folder words at the share its evidence gives them: the lesson the task names outranks one that shares a folder of the call", () => {
    const entries = [
      ...corpus,
      indexEntry({ id: 'case-ndots-dns-storm', title: 'ndots:5 turned every lookup into a DNS storm', summary: 'The resolver tried each search domain first.' }),
      indexEntry({ id: 'case-templates-restart', title: 'Templates restarted every replica at once', summary: 'A change to the templates restarted them all.' }),
    ];
    const index = searchIndexOf(entries);
    const input = { ...taskInput('set ndots to 2 for the api pods'), tool: 'Edit', paths: ['charts/api/templates/deployment.yaml'] };
    const ranked = rankLessons(index, buildQuery(input, VOCABULARY), policy, NOW);
    expect(ranked.slice(0, 2).map((r) => [index.id(r.doc), r.evidence])).toEqual([
      ['case-ndots-dns-storm', 1],
      ['case-templates-restart', 0.5],
    ]);
  });

  it('searches the whole lesson text, weighted by field: a title match outranks the same words in the story', () => {
    const bodies = new Map([['case-cron-overlap', 'The pgbouncer pool ran dry while the ledger export held every connection.']]);
    const withStory = [
      ...corpus,
      indexEntry({ id: 'case-pgbouncer-pool-dry', title: 'Pgbouncer pool ran dry', summary: 'Connections ran out.' }),
    ];
    // Words only in the body (Situation, Mistake, Root Cause, Fix) find the lesson...
    expect(select('pgbouncer pool exhausted during the ledger export', { bodies })).toContain('case-cron-overlap');
    expect(select('pgbouncer pool exhausted during the ledger export')).not.toContain('case-cron-overlap');
    const found = selectFromIndex(searchIndexOf(corpus, { bodies }), taskInput('pgbouncer pool exhausted during the ledger export'), policy, NOW).selected[0]!;
    expect(found.reasons[0]).toBe('matched "pgbouncer", "pool", "ledger", "export" in text');
    // ...below a lesson that names them in its title.
    expect(select('pgbouncer pool ran dry', { bodies }, withStory)[0]).toBe('case-pgbouncer-pool-dry');
  });
});


describe('preflight with thousands of fetched lessons', () => {
  it('still applies the local lesson when the sources are full of the task’s words: a side judges how informative a word is by its own lessons', () => {
    const local = [
      indexEntry({ id: 'case-pgbouncer-pool-exhausted', title: 'Pgbouncer pool exhausted during the ledger export', tags: ['database'] }),
      indexEntry({ id: 'case-cron-timezone', title: 'Cron job ran in UTC instead of local time', tags: ['scheduling'] }),
    ];
    const sources = Array.from({ length: 3000 }, (_, i) =>
      indexEntry({ id: `platform:principle-pool-${i}`, level: 'principle', status: 'canonical', title: `Keep pool ${i} of pgbouncer from being exhausted during ledger exports`, tags: ['database'] }),
    );
    const task = taskInput('pgbouncer pool exhausted during the ledger export');
    expect(selectFromIndex(searchIndexOf(local), task, policy, NOW).selected.map((l) => l.id)).toEqual(['case-pgbouncer-pool-exhausted']);
    expect(selectFromIndex(searchIndexWithSources(local, sources), task, policy, NOW).selected.map((l) => l.id)).toContain('case-pgbouncer-pool-exhausted');
  });
});
