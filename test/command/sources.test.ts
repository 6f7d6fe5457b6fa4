import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fakeToken, runLessons } from '../helpers/guard.js';
import { lessonFile, lessonText } from '../helpers/lessons.js';
import { git, initGitRepo, tempDir, tempLessonsRepo, writeFiles } from '../helpers/repo.js';
import { loadSourceLessons } from '../../src/sources/load.js';
import { loadPolicy } from '../../src/policy/validate-policy.js';
import { validateAgainst } from '../../src/schema/validate.js';

const PATTERN = 'pattern-pin-ci-actions';

/** A platform repository (its lessons under org/lessons) pushed to a local bare repository, its remote. */
function platformRepo(): { work: string; bare: string } {
  const work = initGitRepo();
  writeFiles(work, {
    'README.md': 'platform\n',
    'src/app.ts': 'export {};\n',
    ...prefixed('org/', lessonFile({ id: 'case-2026-02-01-action-tag-moved', title: 'A moved action tag ran foreign code' })),
    ...prefixed('org/', lessonFile({ id: 'case-2026-03-01-action-tag-moved-again', title: 'A moved action tag again' })),
    ...prefixed(
      'org/',
      lessonFile({ id: PATTERN, level: 'pattern', title: 'Pin third-party CI actions to a commit', source_case_ids: ['case-2026-02-01-action-tag-moved', 'case-2026-03-01-action-tag-moved-again'] }),
    ),
    ...prefixed('org/', lessonFile({ id: 'pattern-old-way', level: 'pattern', title: 'An old way', status: 'retired', retired_reason: 'no longer holds', source_case_ids: ['case-2026-02-01-action-tag-moved', 'case-2026-03-01-action-tag-moved-again'] })),
  });
  commit(work, 'platform lessons');
  const bare = path.join(tempDir(), 'platform.git');
  git(work, 'init', '-q', '--bare', '-b', 'main', bare);
  git(work, 'push', '-q', bare, 'main');
  return { work, bare };
}

function prefixed(prefix: string, files: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(files).map(([rel, text]) => [`${prefix}${rel}`, text]));
}

function commit(root: string, message: string): string {
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '--no-verify', '-m', message);
  return git(root, 'rev-parse', 'HEAD').trim();
}

/** A service repository whose policy takes the platform's patterns and cases. */
function serviceRepo(url: string, files: Record<string, string> = {}): string {
  const root = tempLessonsRepo(files);
  const policyFile = path.join(root, 'policy/workflow-policy.json');
  const policy = JSON.parse(fs.readFileSync(policyFile, 'utf8'));
  policy.sources = [{ name: 'platform', url, ref: 'main', path: 'org/lessons', levels: ['case', 'pattern'] }];
  fs.writeFileSync(policyFile, `${JSON.stringify(policy, null, 2)}\n`);
  return root;
}

function json<T>(text: string): T {
  return JSON.parse(text) as T;
}

describe('lessons sources: the policy', () => {
  it('without sources, update --locked (the CI step) does nothing and succeeds', () => {
    const root = tempLessonsRepo();
    expect(runLessons(['sources', 'update', '--locked'], { cwd: root })).toMatchObject({ exitCode: 0, stdout: 'no sources in the policy (add them under "sources" in policy/workflow-policy.json)\n', stderr: '' });
    expect(fs.existsSync(path.join(root, 'lessons/sources.lock.json'))).toBe(false);
  });

  it('a path leaving the source repository, or two sources of one name, is a configuration error (exit 2)', () => {
    const escaping = serviceRepo('../elsewhere.git');
    const policyFile = path.join(escaping, 'policy/workflow-policy.json');
    const policy = JSON.parse(fs.readFileSync(policyFile, 'utf8'));
    policy.sources[0].path = '../../etc';
    fs.writeFileSync(policyFile, JSON.stringify(policy));
    const result = runLessons(['sources', 'update'], { cwd: escaping });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('  sources[0].path: must match');
    policy.sources[0].path = 'lessons';
    policy.sources.push({ ...policy.sources[0] });
    fs.writeFileSync(policyFile, JSON.stringify(policy));
    expect(runLessons(['sources', 'status'], { cwd: escaping })).toMatchObject({ exitCode: 2, stderr: 'lessons: two sources in the policy are named `platform`: give each source its own name\n' });
  });
});

// Each test runs several git fetches and CLI runs against local bare repositories: slow on a loaded machine.
describe('lessons sources: a platform repository and a service repository', { timeout: 120_000 }, () => {
  it('update fetches the lessons tree only, locks the commit, and status says current', () => {
    const platform = platformRepo();
    const head = git(platform.work, 'rev-parse', 'HEAD').trim();
    const service = serviceRepo(platform.bare);
    const update = runLessons(['sources', 'update'], { cwd: service });
    expect(update.stderr).toBe('');
    expect(update.stdout).toBe(`platform: updated at ${head.slice(0, 12)}\nwrote lessons/sources.lock.json: commit it\n`);
    expect(update.exitCode).toBe(0);
    const lockText = fs.readFileSync(path.join(service, 'lessons/sources.lock.json'), 'utf8');
    expect(lockText).toBe(`${JSON.stringify({ version: 1, sources: [{ name: 'platform', url: platform.bare, ref: 'main', path: 'org/lessons', commit: head }] }, null, 2)}\n`);
    expect(validateAgainst('sources-lock', JSON.parse(lockText))).toEqual([]);
    const checkout = path.join(service, '.lessons/sources/platform');
    // Sparse to the lessons tree, and to the levels taken: no README, no src, no principles.
    expect(fs.readdirSync(checkout).sort()).toEqual(['.git', 'org']);
    expect(fs.readdirSync(path.join(checkout, 'org/lessons')).sort()).toEqual(['cases', 'patterns']);
    expect(git(checkout, 'rev-parse', '--is-shallow-repository').trim()).toBe('true');
    // A second update with nothing new leaves the lock's bytes alone.
    expect(runLessons(['sources', 'update'], { cwd: service }).stdout).toBe(`platform: unchanged at ${head.slice(0, 12)}\n`);
    expect(fs.readFileSync(path.join(service, 'lessons/sources.lock.json'), 'utf8')).toBe(lockText);
    const status = runLessons(['sources', 'status', '--json'], { cwd: service });
    expect(json<{ sources: unknown[] }>(status.stdout).sources).toEqual([{ name: 'platform', state: 'current', locked: head, checkout: head, remote: head, message: `at ${head.slice(0, 12)}, as locked` }]);
    expect(status.exitCode).toBe(0);
    // A remote that cannot be asked: the status is unknown, an environment error (exit 2), not a finding.
    fs.renameSync(platform.bare, `${platform.bare}.moved`);
    const unreachable = runLessons(['sources', 'status'], { cwd: service });
    expect(unreachable.stdout).toMatch(/^platform: unreachable: cannot reach .*platform\.git: .+\n$/);
    expect(unreachable.exitCode).toBe(2);
  });

  it('an update that changes nothing keeps the sources search cache; new levels, or a missing cache, build it again; a scan of the local files searches it too', () => {
    const platform = platformRepo();
    const service = serviceRepo(platform.bare);
    expect(runLessons(['sources', 'update'], { cwd: service }).exitCode).toBe(0);
    const cache = path.join(service, '.lessons/cache/sources.bin');
    const first = fs.statSync(cache).ino;
    expect(runLessons(['sources', 'update'], { cwd: service }).exitCode).toBe(0);
    expect(fs.statSync(cache).ino).toBe(first);
    // The policy now takes principles too: same commit, another segment.
    const policyFile = path.join(service, 'policy/workflow-policy.json');
    const policy = JSON.parse(fs.readFileSync(policyFile, 'utf8'));
    policy.sources[0].levels = ['case', 'pattern', 'principle'];
    fs.writeFileSync(policyFile, `${JSON.stringify(policy, null, 2)}\n`);
    expect(runLessons(['sources', 'update'], { cwd: service }).exitCode).toBe(0);
    const second = fs.statSync(cache).ino;
    expect(second).not.toBe(first);
    fs.rmSync(cache);
    expect(runLessons(['sources', 'update'], { cwd: service }).exitCode).toBe(0);
    expect(fs.existsSync(cache)).toBe(true);
    // With no lessons/index.json, preflight scans the local files and still searches the sources.
    const found = runLessons(['preflight', 'pin the third-party CI actions', '--json'], { cwd: service });
    expect(found.stderr).toContain('lessons/index.json is missing; scanned the lesson files instead');
    expect(json<{ selected: { id: string }[] }>(found.stdout).selected.map((lesson) => lesson.id)).toContain(`platform:${PATTERN}`);
  });

  it('status says behind when the source moved; --locked checks out the locked commit, not the newer one', () => {
    const platform = platformRepo();
    const locked = git(platform.work, 'rev-parse', 'HEAD').trim();
    const service = serviceRepo(platform.bare);
    expect(runLessons(['sources', 'update'], { cwd: service }).exitCode).toBe(0);
    writeFiles(platform.work, prefixed('org/', lessonFile({ id: 'case-2026-04-01-new', title: 'Newer' })));
    const newer = commit(platform.work, 'newer');
    git(platform.work, 'push', '-q', platform.bare, 'main');
    const status = runLessons(['sources', 'status'], { cwd: service });
    expect(status.stdout).toBe(`platform: behind: \`main\` is at ${newer.slice(0, 12)}, the lock at ${locked.slice(0, 12)}: run \`lessons sources update\` to take it\n`);
    expect(status.exitCode).toBe(1);
    // A checkout away from the lock is a warning by name in lint, never a failure of the local run.
    const checkout = path.join(service, '.lessons/sources/platform');
    git(checkout, 'fetch', '-q', '--depth', '1', 'origin', 'main');
    git(checkout, 'checkout', '-q', '--detach', 'FETCH_HEAD');
    const lint = runLessons(['lint'], { cwd: service });
    expect(lint.exitCode).toBe(0);
    expect(lint.stdout).toContain(`.lessons/sources/platform: warning [source] source \`platform\`: the checkout is at ${newer.slice(0, 12)}, the lock names ${locked.slice(0, 12)}: run \`lessons sources update --locked\`\n`);
    fs.rmSync(path.join(service, '.lessons'), { recursive: true });
    expect(runLessons(['sources', 'status'], { cwd: service })).toMatchObject({ exitCode: 1, stdout: 'platform: missing: not fetched: run `lessons sources update --locked`\n' });
    const ci = runLessons(['sources', 'update', '--locked'], { cwd: service });
    expect(ci).toMatchObject({ exitCode: 0, stdout: `platform: checked-out at ${locked.slice(0, 12)}\n` });
    expect(git(path.join(service, '.lessons/sources/platform'), 'rev-parse', 'HEAD').trim()).toBe(locked);
    expect(fs.existsSync(path.join(service, '.lessons/sources/platform/org/lessons/cases/case-2026-04-01-new.md'))).toBe(false);
  });

  it('--locked fails naming the source when the lock does not match the policy or the commit is gone; plain update reports a rewritten ref', () => {
    const platform = platformRepo();
    const service = serviceRepo(platform.bare);
    expect(runLessons(['sources', 'update', '--locked'], { cwd: service })).toMatchObject({
      exitCode: 1,
      stderr: 'platform: failed: is not in lessons/sources.lock.json: run `lessons sources update` and commit the lock file\n',
    });
    runLessons(['sources', 'update'], { cwd: service });
    const first = git(platform.work, 'rev-parse', 'HEAD').trim();
    // The platform rewrites main: the locked commit leaves its history.
    git(platform.work, 'commit', '-q', '--amend', '-m', 'rewritten');
    const rewritten = git(platform.work, 'rev-parse', 'HEAD').trim();
    git(platform.work, 'push', '-q', '-f', platform.bare, 'main');
    expect(runLessons(['sources', 'status'], { cwd: service })).toMatchObject({
      exitCode: 1,
      stdout: `platform: rewritten: \`main\` was rewritten: it is at ${rewritten.slice(0, 12)}, and the locked commit ${first.slice(0, 12)} is not in its history any more: run \`lessons sources update\` and review the source's changes\n`,
    });
    // Status fetched objects only: the checkout is still at the locked commit.
    expect(git(path.join(service, '.lessons/sources/platform'), 'rev-parse', 'HEAD').trim()).toBe(first);
    const update = runLessons(['sources', 'update', '--json'], { cwd: service });
    expect(update.exitCode).toBe(0);
    expect(json<{ sources: unknown[] }>(update.stdout).sources).toEqual([
      {
        name: 'platform',
        status: 'updated',
        commit: rewritten,
        previous: first,
        rewritten: true,
        message: `\`main\` was rewritten: the locked commit ${first.slice(0, 12)} is not in its history any more; review the source's changes before committing the lock file`,
      },
    ]);
    // A lock naming a commit the remote no longer has: CI fails by name, exit 1.
    const lockFile = path.join(service, 'lessons/sources.lock.json');
    fs.writeFileSync(lockFile, fs.readFileSync(lockFile, 'utf8').replace(rewritten, 'f'.repeat(40)));
    fs.rmSync(path.join(service, '.lessons'), { recursive: true });
    const ci = runLessons(['sources', 'update', '--locked'], { cwd: service });
    expect(ci.exitCode).toBe(1);
    expect(ci.stderr).toMatch(/^platform: failed: cannot check out the locked commit f{40}: .+ \(was the ref rewritten\? run `lessons sources update` to lock a commit the remote has\)\n$/);
  });

  it('a rewritten ref is detected from the remote when the locked commit is not in the checkout: kept unreachable there, or gone', () => {
    const platform = platformRepo();
    const service = serviceRepo(platform.bare);
    const checkout = path.join(service, '.lessons/sources/platform');
    const update = (): { status: string; previous: string; commit: string; rewritten: boolean; message: string | null } => {
      // A fresh checkout each time, as in CI: the locked commit is not local.
      fs.rmSync(path.join(service, '.lessons'), { recursive: true, force: true });
      const result = runLessons(['sources', 'update', '--json'], { cwd: service });
      expect(result.exitCode).toBe(0);
      return json<{ sources: [{ status: string; previous: string; commit: string; rewritten: boolean; message: string | null }] }>(result.stdout).sources[0];
    };
    update();
    const first = git(platform.work, 'rev-parse', 'HEAD').trim();
    writeFiles(platform.work, prefixed('org/', lessonFile({ id: 'case-2026-04-01-new', title: 'Newer' })));
    const second = commit(platform.work, 'newer');
    git(platform.work, 'push', '-q', platform.bare, 'main');
    // A fast-forward is no rewrite.
    expect(update()).toMatchObject({ status: 'updated', previous: first, commit: second, rewritten: false, message: null });
    expect(git(checkout, 'rev-parse', 'HEAD').trim()).toBe(second);
    git(platform.work, 'commit', '-q', '--amend', '-m', 'rewritten');
    const third = git(platform.work, 'rev-parse', 'HEAD').trim();
    git(platform.work, 'push', '-q', '-f', platform.bare, 'main');
    // The remote still holds the locked commit, though no ref reaches it.
    const kept = update();
    expect(kept).toMatchObject({ status: 'updated', previous: second, commit: third, rewritten: true });
    expect(kept.message).toBe(`\`main\` was rewritten: the locked commit ${second.slice(0, 12)} is not in its history any more; review the source's changes before committing the lock file`);
    git(platform.work, 'commit', '-q', '--amend', '-m', 'rewritten again');
    const fourth = git(platform.work, 'rev-parse', 'HEAD').trim();
    git(platform.work, 'push', '-q', '-f', platform.bare, 'main');
    git(platform.bare, 'gc', '-q', '--prune=now');
    expect(() => git(platform.bare, 'cat-file', '-e', third)).toThrow();
    // The remote no longer has the locked commit at all.
    expect(update()).toMatchObject({ status: 'updated', previous: third, commit: fourth, rewritten: true });
    const text = runLessons(['sources', 'update'], { cwd: service });
    expect(text.stdout).toBe(`platform: unchanged at ${fourth.slice(0, 12)}\n`);
  });

  it('an unreachable source is reported by name; the other sources are fetched and locked', () => {
    const platform = platformRepo();
    const service = serviceRepo(platform.bare);
    const policyFile = path.join(service, 'policy/workflow-policy.json');
    const policy = JSON.parse(fs.readFileSync(policyFile, 'utf8'));
    policy.sources.unshift({ name: 'gone', url: path.join(tempDir(), 'missing.git'), ref: 'main' });
    fs.writeFileSync(policyFile, JSON.stringify(policy));
    const update = runLessons(['sources', 'update'], { cwd: service });
    expect(update.exitCode).toBe(1);
    expect(update.stderr).toMatch(/^gone: failed: cannot fetch .*missing\.git main: .*does not appear to be a git repository\n$/);
    expect(update.stdout).toMatch(/^platform: updated at [0-9a-f]{12}\n/);
    const lock = json<{ sources: { name: string }[] }>(fs.readFileSync(path.join(service, 'lessons/sources.lock.json'), 'utf8'));
    expect(lock.sources.map((entry) => entry.name)).toEqual(['platform']);
    const status = runLessons(['sources', 'status'], { cwd: service });
    expect(status.stdout.split('\n')[0]).toBe('gone: unlocked: not in lessons/sources.lock.json: run `lessons sources update`');
    expect(status.exitCode).toBe(1);
    // A locked source the policy no longer names is a mismatch too.
    policy.sources = [{ name: 'other', url: platform.bare, ref: 'main', path: 'org/lessons' }];
    fs.writeFileSync(policyFile, JSON.stringify(policy));
    expect(runLessons(['sources', 'update', '--locked'], { cwd: service }).exitCode).toBe(1);
    const dropped = runLessons(['sources', 'status'], { cwd: service });
    expect(dropped.stdout.split('\n')).toContain('platform: not-in-policy: in lessons/sources.lock.json but not in the policy: run `lessons sources update` to drop it');
    expect(dropped.exitCode).toBe(1);
  });

  it('the loaded lessons carry provenance, retired ones are marked, malformed ones and symbolic links are left out by name', () => {
    const platform = platformRepo();
    writeFiles(platform.work, { 'org/lessons/cases/case-bad.md': lessonText({ id: 'case-bad', status: 'bogus' }) });
    fs.symlinkSync('/etc/passwd', path.join(platform.work, 'org/lessons/patterns/pattern-link.md'));
    commit(platform.work, 'bad files');
    git(platform.work, 'push', '-q', platform.bare, 'main');
    const service = serviceRepo(platform.bare);
    expect(runLessons(['sources', 'update'], { cwd: service }).exitCode).toBe(0);
    const loaded = loadSourceLessons(service, loadPolicy(service), { schemaErrors: (data) => validateAgainst('lesson', data) });
    expect(loaded.lessons.map((item) => [item.qualifiedId, item.retired, item.path])).toEqual([
      ['platform:case-2026-02-01-action-tag-moved', false, '.lessons/sources/platform/org/lessons/cases/case-2026-02-01-action-tag-moved.md'],
      ['platform:case-2026-03-01-action-tag-moved-again', false, '.lessons/sources/platform/org/lessons/cases/case-2026-03-01-action-tag-moved-again.md'],
      ['platform:pattern-old-way', true, '.lessons/sources/platform/org/lessons/patterns/pattern-old-way.md'],
      [`platform:${PATTERN}`, false, `.lessons/sources/platform/org/lessons/patterns/${PATTERN}.md`],
    ]);
    expect(loaded.problems.map((problem) => `${problem.file}: ${problem.message}`)).toEqual([
      '.lessons/sources/platform/org/lessons/cases/case-bad.md: source `platform`: left out: status must be one of: "candidate", "validated", "canonical", "retired"',
      '.lessons/sources/platform/org/lessons/patterns/pattern-link.md: source `platform`: refused: a symbolic link, and a source may only bring files of its own',
    ]);
  });

  it('lint resolves <source>:<id> references against the checkout, says to fetch a missing one, and that a local id wins', () => {
    const platform = platformRepo();
    const principle = lessonFile({ id: 'principle-pin-what-you-run', level: 'principle', title: 'Pin what you run', source_pattern_ids: [`platform:${PATTERN}`, 'platform:pattern-nowhere', 'elsewhere:pattern-x'] });
    const shadow = lessonFile({ id: 'case-2026-02-01-action-tag-moved', title: 'Our own story of it' });
    const service = serviceRepo(platform.bare, { ...principle, ...shadow });
    const before = runLessons(['lint', '--json'], { cwd: service });
    const messages = (text: string) => json<{ findings: { rule: string; severity: string; message: string }[] }>(text).findings.map((finding) => `${finding.severity} ${finding.rule}: ${finding.message}`);
    expect(messages(before.stdout)).toEqual(
      expect.arrayContaining([
        'warning source: source `platform`: not fetched: run `lessons sources update`',
        `warning reference: source_pattern_ids names \`platform:${PATTERN}\`, but source \`platform\` is not fetched: run \`lessons sources update\` to check it`,
        'error reference: source_pattern_ids names `elsewhere:pattern-x`, but `elsewhere` is not a source in the policy: add it to sources or fix the id',
      ]),
    );
    runLessons(['sources', 'update'], { cwd: service });
    const after = runLessons(['lint', '--json'], { cwd: service });
    expect(after.exitCode).toBe(1);
    const found = messages(after.stdout);
    expect(found).toEqual(
      expect.arrayContaining([
        'error reference: source_pattern_ids names `platform:pattern-nowhere`, which source `platform` does not have at its locked commit: fix the id or remove it',
        'warning source-shadowed: id `case-2026-02-01-action-tag-moved` is also a lesson of source `platform` (platform:case-2026-02-01-action-tag-moved): the local one wins; rename it if they are different lessons',
      ]),
    );
    expect(found.filter((line) => line.includes(`platform:${PATTERN}\``) && line.includes('reference'))).toEqual([]);
    expect(found.some((line) => line.includes('not fetched'))).toBe(false);
  });

  it('promote --to-source commits a pattern from local cases to a new branch of the checkout, naming its evidence, and pushes nothing', () => {
    const platform = platformRepo();
    const cases = {
      ...lessonFile({ id: 'case-2026-05-01-token-in-log', title: 'A token printed in a CI log' }),
      ...lessonFile({ id: 'case-2026-06-01-token-in-artifact', title: 'A token inside a build artifact' }),
    };
    const service = serviceRepo(platform.bare, cases);
    runLessons(['sources', 'update'], { cwd: service });
    const locked = git(platform.bare, 'rev-parse', 'main').trim();
    const result = runLessons(
      ['promote', 'case-2026-05-01-token-in-log', 'case-2026-06-01-token-in-artifact', '--to', 'pattern', '--title', 'Keep tokens out of CI output', '--id', 'pattern-tokens-out-of-ci', '--to-source', 'platform', '--json'],
      { cwd: service },
    );
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    const origin = path.basename(service);
    const out = json<{ branch: string; commit: string; path: string; evidence: string[]; recorded: string[] }>(result.stdout);
    expect(out).toMatchObject({
      branch: 'lessons/promote-pattern-tokens-out-of-ci',
      path: 'org/lessons/patterns/pattern-tokens-out-of-ci.md',
      evidence: ['case-2026-05-01-token-in-log', 'case-2026-06-01-token-in-artifact'],
      recorded: [],
    });
    const checkout = path.join(service, '.lessons/sources/platform');
    expect(git(checkout, 'log', '-1', '--format=%B', out.branch)).toBe(
      `Add pattern pattern-tokens-out-of-ci: Keep tokens out of CI output\n\nPromoted in ${origin} from 2 independent cases, its evidence:\n- \`case-2026-05-01-token-in-log\` of ${origin}: A token printed in a CI log\n- \`case-2026-06-01-token-in-artifact\` of ${origin}: A token inside a build artifact\n\n`,
    );
    expect(git(checkout, 'rev-parse', `${out.branch}^`).trim()).toBe(locked);
    const written = git(checkout, 'show', `${out.branch}:${out.path}`);
    // The evidence is named in the lesson's Sources section; its fields name only what the source can resolve.
    expect(written).toContain(`## Sources\n\nPromoted from 2 cases; they stay as supporting evidence.\n\n- \`case-2026-05-01-token-in-log\` of ${origin}: A token printed in a CI log\n`);
    expect(written).not.toMatch(/source_case_ids: \[./);
    // The platform's own lint, on the branch as it would be pushed: no error, and nothing about the new lesson but the evidence it has to gather there and the Situation still to write.
    git(platform.work, 'fetch', '-q', checkout, `${out.branch}:${out.branch}`);
    git(platform.work, 'checkout', '-q', out.branch);
    const lint = runLessons(['-C', 'org', 'lint', '--json'], { cwd: platform.work });
    expect(lint.exitCode).toBe(0);
    const findings = json<{ findings: { file: string; rule: string; severity: string }[] }>(lint.stdout).findings.filter((finding) => finding.file === `lessons/patterns/pattern-tokens-out-of-ci.md`);
    expect(findings.map((finding) => `${finding.severity} ${finding.rule}`)).toEqual(['warning evidence', 'warning placeholder']);
    // Nothing pushed, the checkout back at the locked commit, nothing local written.
    expect(git(platform.bare, 'for-each-ref', '--format=%(refname)').trim()).toBe('refs/heads/main');
    expect(git(checkout, 'rev-parse', 'HEAD').trim()).toBe(locked);
    expect(fs.readdirSync(path.join(service, 'lessons/patterns'))).toEqual([]);
    // Too little evidence is refused, naming what is missing.
    const refused = runLessons(['promote', 'case-2026-05-01-token-in-log', '--to', 'pattern', '--title', 'One case', '--to-source', 'platform'], { cwd: service });
    expect(refused).toMatchObject({ exitCode: 1, stderr: 'lessons: cannot promote to a pattern of `platform`: needs 2 independent cases, has 1\n' });
  });

  it('applications of a source pattern are recorded here, and promotion to a principle counts them', () => {
    const platform = platformRepo();
    const service = serviceRepo(platform.bare);
    runLessons(['sources', 'update'], { cwd: service });
    const promote = ['promote', `platform:${PATTERN}`, '--to', 'principle', '--title', 'Run only what you pinned', '--id', 'principle-run-only-pinned'];
    for (const context of ['billing', 'search']) {
      expect(runLessons(['apply', `platform:${PATTERN}`, '--context', context, '--ref', `PR #${context.length}`, '--date', '2026-11-01'], { cwd: service }).exitCode).toBe(0);
    }
    expect(runLessons(promote, { cwd: service })).toMatchObject({
      exitCode: 1,
      stderr: 'lessons: cannot promote to a principle: needs 3 validated applications in distinct contexts across its source patterns, has 2 in 2 contexts (billing, search): record more with `lessons apply <pattern-id> --context <name> --ref <PR>`\n',
    });
    const third = runLessons(['apply', `platform:${PATTERN}`, '--context', 'checkout', '--ref', 'PR #9', '--date', '2026-11-02'], { cwd: service });
    expect(third.stdout).toContain(`recorded platform:${PATTERN} in checkout (PR #9, 2026-11-02)`);
    expect(fs.readFileSync(path.join(service, 'lessons/source-applications.json'), 'utf8')).toBe(
      `${JSON.stringify(
        {
          version: 1,
          applications: [
            { pattern: `platform:${PATTERN}`, context: 'billing', ref: 'PR #7', validated_at: '2026-11-01' },
            { pattern: `platform:${PATTERN}`, context: 'checkout', ref: 'PR #9', validated_at: '2026-11-02' },
            { pattern: `platform:${PATTERN}`, context: 'search', ref: 'PR #6', validated_at: '2026-11-01' },
          ],
        },
        null,
        2,
      )}\n`,
    );
    // The checkout was not written: the records stay here.
    expect(git(path.join(service, '.lessons/sources/platform'), 'status', '--porcelain')).toBe('');
    const promoted = runLessons(promote, { cwd: service });
    expect(promoted.exitCode).toBe(0);
    const principle = fs.readFileSync(path.join(service, 'lessons/principles/principle-run-only-pinned.md'), 'utf8');
    expect(principle).toContain(`source_pattern_ids: [platform:${PATTERN}]`);
    // The index promote rewrote names the source's pattern as written, and is valid.
    const index = json<{ lessons: { id: string; source_pattern_ids: string[] }[] }>(fs.readFileSync(path.join(service, 'lessons/index.json'), 'utf8'));
    expect(index.lessons.find((entry) => entry.id === 'principle-run-only-pinned')?.source_pattern_ids).toEqual([`platform:${PATTERN}`]);
    expect(validateAgainst('index', index)).toEqual([]);
    expect(runLessons(['index', '--check'], { cwd: service }).exitCode).toBe(0);
    // The guard, which does not load the sources, neither refuses the reference nor the evidence.
    initGitRepo(service);
    fs.writeFileSync(path.join(service, '.gitignore'), '.lessons/\n');
    commit(service, 'principle');
    const guard = json<{ findings: { gate: string; message: string }[] }>(runLessons(['guard', '--stage', 'ci', '--json'], { cwd: service }).stdout);
    expect(guard.findings.filter((finding) => finding.gate === 'schema' || finding.gate === 'promotion')).toEqual([]);
    const lint = runLessons(['lint', '--json'], { cwd: service });
    expect(json<{ findings: { file: string; severity: string }[] }>(lint.stdout).findings.filter((finding) => finding.severity === 'error')).toEqual([]);
    expect(runLessons(['apply', 'platform:pattern-nowhere', '--context', 'x', '--ref', 'y'], { cwd: service })).toMatchObject({
      exitCode: 1,
      stderr: 'lessons: source `platform` has no lesson `pattern-nowhere` in its checkout: check the id, or run `lessons sources update`\n',
    });
  });

  it('the ci guard reports a secret in a fetched source lesson like a local one', () => {
    const platform = platformRepo();
    writeFiles(platform.work, { [`org/lessons/patterns/${PATTERN}.md`]: lessonText({ id: PATTERN, level: 'pattern', title: 'Pin', source_case_ids: ['case-2026-02-01-action-tag-moved', 'case-2026-03-01-action-tag-moved-again'] }, `## Prevention Checklist\n\n- [ ] Never paste ${fakeToken('aws')} again.\n`) });
    commit(platform.work, 'leak');
    git(platform.work, 'push', '-q', platform.bare, 'main');
    const service = initGitRepo(serviceRepo(platform.bare, lessonFile({ id: 'case-2026-01-01-example' })));
    fs.writeFileSync(path.join(service, '.gitignore'), '.lessons/\n');
    expect(runLessons(['index'], { cwd: service }).exitCode).toBe(0);
    expect(runLessons(['sources', 'update'], { cwd: service }).exitCode).toBe(0);
    commit(service, 'init');
    const guard = runLessons(['guard', '--stage', 'ci', '--json'], { cwd: service });
    const findings = json<{ findings: { gate: string; file: string }[] }>(guard.stdout).findings.filter((finding) => finding.gate === 'secrets');
    expect(findings.map((finding) => finding.file)).toEqual([`.lessons/sources/platform/org/lessons/patterns/${PATTERN}.md`]);
    expect(guard.exitCode).toBe(1);
  });
});
