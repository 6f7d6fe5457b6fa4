import fs from 'node:fs';
import path from 'node:path';
import { writeIndex } from '../../src/store/index-write.js';
import { seededRandom } from '../helpers/random.js';

/**
 * Synthetic lessons repositories for benchmarks: varied titles, tags, checklists, triggers
 * and metadata over many engineering domains, with a vocabulary that keeps growing with the
 * corpus (service names), as a real one does. Deterministic for a seed.
 */

interface Domain {
  tags: string[];
  things: string[];
  failures: string[];
  actions: string[];
  paths: string[];
  commands: string[];
}

const DOMAINS: Domain[] = [
  { tags: ['release', 'versioning'], things: ['version', 'manifest', 'changelog', 'release tag', 'package'], failures: ['missed the manifest', 'shipped stale metadata', 'went out unsigned', 'tagged the wrong commit'], actions: ['bump every manifest in one commit', 'tag only green commits', 'derive the version from one file'], paths: ['**/package.json', '**/CHANGELOG.md'], commands: ['npm publish*', 'git tag*'] },
  { tags: ['database', 'migration'], things: ['column', 'index', 'table', 'constraint', 'backfill'], failures: ['locked the table', 'dropped live data', 'timed out in production', 'broke old pods'], actions: ['expand, migrate, then contract', 'backfill in batches', 'add the index concurrently'], paths: ['**/migrations/**'], commands: ['npx prisma migrate*'] },
  { tags: ['ci', 'testing'], things: ['test', 'pipeline', 'cache key', 'workflow', 'runner'], failures: ['hid a race', 'passed without running', 'skipped the required check', 'used a stale cache'], actions: ['fix flaky tests instead of retrying', 'pin the runner image', 'key the cache on the lockfile'], paths: ['.github/workflows/**', '**/*.test.ts'], commands: ['npx vitest*'] },
  { tags: ['security', 'secrets'], things: ['token', 'api key', 'env file', 'private key', 'credential'], failures: ['was committed', 'leaked into logs', 'was baked into the image', 'never rotated'], actions: ['rotate before cleanup', 'scan commits for secrets', 'pass secrets at runtime'], paths: ['**/.env*', '**/Dockerfile'], commands: ['git add -A*'] },
  { tags: ['queues', 'idempotency'], things: ['consumer', 'webhook', 'message', 'retry', 'job'], failures: ['charged twice', 'processed duplicates', 'stormed the upstream', 'dropped events'], actions: ['make consumers idempotent', 'bound retries with backoff', 'store a dedup key'], paths: ['**/workers/**'], commands: [] },
  { tags: ['time', 'dates'], things: ['timestamp', 'time zone', 'birthday', 'cron schedule', 'daylight saving'], failures: ['shifted by a day', 'skipped a run', 'showed the wrong hour', 'ran twice'], actions: ['store UTC and convert at the edges', 'test around DST changes', 'use dates without times for birthdays'], paths: [], commands: [] },
  { tags: ['money', 'billing'], things: ['invoice', 'amount', 'currency', 'tax', 'refund'], failures: ['rounded wrong', 'multiplied yen by 100', 'lost a cent', 'double refunded'], actions: ['keep money in integer minor units', 'round once at the edge', 'know each currency exponent'], paths: ['**/billing/**'], commands: [] },
  { tags: ['observability', 'logging'], things: ['log line', 'metric', 'alert', 'trace', 'dashboard'], failures: ['logged personal data', 'never fired', 'hid the real error', 'paged nobody'], actions: ['redact at the logger', 'alert on symptoms', 'test every alert'], paths: [], commands: [] },
  { tags: ['infrastructure', 'kubernetes'], things: ['readiness probe', 'deployment', 'load balancer', 'dns record', 'certificate'], failures: ['served 502s', 'expired silently', 'cut over too slowly', 'ran on every replica'], actions: ['add readiness probes', 'monitor every expiry date', 'lower the TTL before a cutover'], paths: ['**/k8s/**', '**/charts/**'], commands: ['kubectl apply*', 'terraform apply*'] },
  { tags: ['frontend', 'caching'], things: ['bundle', 'cdn', 'service worker', 'cache header', 'asset'], failures: ['served stale code', 'cached a private page', 'broke after deploy', 'never invalidated'], actions: ['hash asset names', 'mark private pages no-store', 'purge on deploy'], paths: ['**/nginx*.conf'], commands: [] },
  { tags: ['agents', 'workflow'], things: ['generated file', 'lockfile', 'failing test', 'pre-commit hook', 'refactor'], failures: ['was edited by hand', 'was deleted to go green', 'was bypassed with no-verify', 'grew beyond the task'], actions: ['edit sources, regenerate outputs', 'show evidence before claiming done', 'never bypass a failing check'], paths: ['**/generated/**', '**/package-lock.json'], commands: ['git commit*--no-verify*'] },
  { tags: ['dependencies', 'upgrades'], things: ['dependency', 'base image', 'major version', 'transitive package', 'codemod'], failures: ['pulled a breaking minor', 'drifted with latest', 'needed a newer runtime', 'skipped the codemods'], actions: ['pin and upgrade deliberately', 'read the changelog before upgrading', 'run the codemods'], paths: ['**/Dockerfile'], commands: ['npm update*'] },
];

const SYLLABLES = ['ka', 'lo', 'mi', 'ren', 'tor', 'vex', 'al', 'dun', 'pri', 'so', 'zen', 'qua', 'bel', 'fir', 'gro', 'hul', 'ix', 'jor', 'ny', 'pel'];
const SERVICE_KINDS = ['api', 'worker', 'gateway', 'portal', 'sync', 'ledger', 'search', 'notifier', 'scheduler', 'importer'];
const LEVEL_FOLDERS = { case: 'cases', pattern: 'patterns', principle: 'principles' } as const;

const yamlList = (items: readonly string[]): string => `[${items.map((item) => JSON.stringify(item)).join(', ')}]`;

function isoDay(day: number): string {
  return new Date(Date.UTC(2024, 0, 1) + day * 86_400_000).toISOString().slice(0, 10);
}

/** Writes `count` lessons into `dir` (a new lessons repository), builds lessons/index.json and returns the ids. */
export async function generateRepo(dir: string, count: number, seed: number): Promise<string[]> {
  const rand = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)]!;
  const serviceCount = Math.max(20, Math.floor(count / 5));
  const services = Array.from({ length: serviceCount }, (_, i) => `${pick(SYLLABLES)}${pick(SYLLABLES)}${pick(SYLLABLES)}${i.toString(36)}`);
  for (const folder of Object.values(LEVEL_FOLDERS)) fs.mkdirSync(path.join(dir, 'lessons', folder), { recursive: true });
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const roll = rand();
    const level = roll < 0.75 ? 'case' : roll < 0.93 ? 'pattern' : 'principle';
    const domain = pick(DOMAINS);
    const other = pick(DOMAINS);
    const service = pick(services);
    const kind = pick(SERVICE_KINDS);
    const thing = pick(domain.things);
    const failure = pick(domain.failures);
    const title =
      level === 'case' ? `${thing[0]!.toUpperCase()}${thing.slice(1)} in the ${service} ${kind} ${failure}` : level === 'pattern' ? `${pick(domain.actions)} for every ${thing}` : `${pick(domain.actions)} (${domain.tags[0]} and ${other.tags[0]})`;
    const id = `${level}-${String(i).padStart(5, '0')}-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-').slice(0, 60).replace(/^-+|-+$/g, '')}`;
    const statusRoll = rand();
    const status = statusRoll < 0.03 ? 'retired' : statusRoll < 0.35 ? 'candidate' : statusRoll < 0.85 ? 'validated' : 'canonical';
    // Critical lessons are rare in a real repository: about 3 in 100.
    const severityRoll = rand();
    const severity = severityRoll < 0.15 ? 'low' : severityRoll < 0.6 ? 'medium' : severityRoll < 0.97 ? 'high' : 'critical';
    const created = Math.floor(rand() * 900);
    const withTriggers = rand() < 0.2 && (domain.paths.length > 0 || domain.commands.length > 0);
    const checklist = Array.from({ length: 1 + Math.floor(rand() * 3) }, () => `${pick(domain.actions)} before the ${pick(other.things)} changes in ${service}.`);
    const sources = level === 'pattern' && ids.length > 2 ? [pick(ids.filter((x) => x.startsWith('case-')).slice(-50)), pick(ids.filter((x) => x.startsWith('case-')).slice(-50))] : [];
    const frontmatter = [
      `id: ${id}`,
      `title: ${JSON.stringify(title)}`,
      `level: ${level}`,
      `status: ${status}`,
      `severity: ${severity}`,
      `tags: ${yamlList([...new Set([...domain.tags, pick(other.tags), kind])])}`,
      `confidence: ${1 + Math.floor(rand() * 5)}`,
      `transferability: ${1 + Math.floor(rand() * 5)}`,
      `source: ${rand() < 0.15 ? 'auto' : 'curated'}`,
      `occurrences: ${1 + Math.floor(rand() * rand() * 8)}`,
      `created_at: ${isoDay(created)}`,
      `last_validated_at: ${isoDay(created + Math.floor(rand() * 60))}`,
      `summary: ${JSON.stringify(`The ${thing} of ${service} ${failure} while the team worked on the ${pick(other.things)}.`)}`,
      `project: ${service}`,
      ...(level === 'pattern' && sources.length === 2 && sources[0] !== sources[1] ? [`source_case_ids: ${yamlList(sources as string[])}`] : []),
      ...(status === 'retired' ? ['retired_reason: superseded by a newer lesson'] : []),
      ...(withTriggers
        ? ['triggers:', `  tools: [Edit, Write, Bash]`, `  paths: ${yamlList(domain.paths)}`, `  commands: ${yamlList(domain.commands)}`, `  keywords: ${yamlList([thing])}`]
        : []),
    ];
    const body = [
      '## Situation',
      '',
      `We were changing the ${thing} of the ${service} ${kind}.`,
      '',
      '## Mistake',
      '',
      `It ${failure}.`,
      '',
      '## Root Cause',
      '',
      `Nothing checked the ${pick(other.things)} before the change.`,
      '',
      '## Fix',
      '',
      `We now ${pick(domain.actions)}.`,
      '',
      '## Prevention Checklist',
      '',
      ...checklist.map((item) => `- [ ] ${item}`),
      '',
    ];
    fs.writeFileSync(path.join(dir, 'lessons', LEVEL_FOLDERS[level], `${id}.md`), `---\n${frontmatter.join('\n')}\n---\n\n${body.join('\n')}`);
    ids.push(id);
  }
  await writeIndex({ cwd: dir });
  return ids;
}
