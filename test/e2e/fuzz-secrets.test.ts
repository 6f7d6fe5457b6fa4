/**
 * Seeded, bounded fuzz families for the secrets gate and capture (issue #38): tokens in the
 * spellings that step around a plain match, inputs of long token-like runs, and capture of
 * blocks that carry a token. Each family runs many cases in process (the pure scan, capture's
 * redaction) and a few through the built binary (guard, capture), and counts cases tried,
 * crashed, hung, wrong (a token missed, or written) and data lost (capture dropped what was not
 * a secret). A failure names the seed: LESSONS_FUZZ_SEED=<seed> reproduces it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { extractDrafts } from '../../src/capture/blocks.js';
import { redactDraft } from '../../src/capture/redact.js';
import { DEFAULT_POLICY } from '../../src/policy/policy.js';
import { compileSecretRules, redactText, scanText, secretFingerprint, type CompiledRule } from '../../src/secrets/rules.js';
import { committedLessonsRepo, runLessons } from '../helpers/guard.js';
import { lessonFile } from '../helpers/lessons.js';
import { pick, seededRandom } from '../helpers/random.js';
import { git } from '../helpers/repo.js';

const SEED = Number(process.env.LESSONS_FUZZ_SEED ?? 3838);
const CASES = Number(process.env.LESSONS_FUZZ_CASES ?? 300);
/** Far past a linear scan of the largest input here (well under a second): past it, the case hung. */
const HANG_MS = 15_000;
const RUN_TIMEOUT_MS = 30_000;

const rules = compileSecretRules(DEFAULT_POLICY.secrets) as CompiledRule[];
type Random = () => number;

interface Tally {
  tried: number;
  crashed: number;
  hung: number;
  wrong: number;
  lost: number;
}
const tallies = new Map<string, Tally>();
function tally(family: string): Tally {
  let entry = tallies.get(family);
  if (!entry) tallies.set(family, (entry = { tried: 0, crashed: 0, hung: 0, wrong: 0, lost: 0 }));
  return entry;
}

afterAll(() => {
  const rows = [...tallies].map(([family, t]) => `| ${family} | ${t.tried} | ${t.crashed} | ${t.hung} | ${t.wrong} | ${t.lost} |`);
  console.log(`fuzz-secrets (seed ${SEED})\n| family | tried | crashed | hung | wrong | data lost |\n|---|---|---|---|---|---|\n${rows.join('\n')}`);
});

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const DIGITS = '0123456789';
const j = (...parts: string[]) => parts.join('');
const chars = (random: Random, set: string, n: number) => Array.from({ length: n }, () => set[Math.floor(random() * set.length)]).join('');

/** A random credential of a class the default rules cover, and the rule that reports it as it is (one too plain for its rule's entropy floor is drawn again). */
function randomToken(random: Random): { rule: string; token: string } {
  for (;;) {
    const drawn = drawToken(random);
    if (scanText('x', drawn.token, rules, new Set()).some((match) => match.fingerprint === secretFingerprint(drawn.rule, drawn.token))) return drawn;
  }
}

function drawToken(random: Random): { rule: string; token: string } {
  return pick(random, [
    () => ({ rule: 'github-token', token: `${j('gh', 'p_')}${chars(random, ALNUM, 36)}` }),
    () => ({ rule: 'aws-access-key-id', token: `${j('AK', 'IA')}${chars(random, BASE32, 16)}` }),
    () => ({ rule: 'slack-token', token: `${j('xo', 'xb-')}${chars(random, DIGITS, 11)}-${chars(random, DIGITS, 12)}-${chars(random, ALNUM, 24)}` }),
    () => ({ rule: 'stripe-secret-key', token: `${j('sk', '_live_')}${chars(random, ALNUM, 24)}` }),
    () => ({ rule: 'npm-token', token: `${j('np', 'm_')}${chars(random, ALNUM, 36)}` }),
    () => ({ rule: 'google-api-key', token: `${j('AI', 'za')}${chars(random, ALNUM, 35)}` }),
    () => ({ rule: 'telegram-bot-token', token: `${chars(random, DIGITS, 10)}:AA${chars(random, ALNUM, 33)}` }),
  ])();
}

const LOOK_ALIKE: Record<string, string> = { A: '\u0410', a: '\u0430', e: '\u0435', o: '\u043e', p: '\u0440', c: '\u0441', K: '\u039a', I: '\u0406' };
const at = (random: Random, token: string) => 1 + Math.floor(random() * (token.length - 2));

/** Spellings of a token, each a function of the token. `ascii`: the result is ASCII (an encoding can wrap it). */
const FORMS: { name: string; ascii: boolean; spell: (random: Random, token: string) => string }[] = [
  { name: 'as is', ascii: true, spell: (_r, t) => t },
  { name: 'markdown escape', ascii: true, spell: (_r, t) => t.replace(/([_:-])/, '\\$1') },
  { name: 'zero-width', ascii: false, spell: (r, t) => { const i = at(r, t); return `${t.slice(0, i)}${pick(r, ['\u200b', '\u200c', '\u200d', '\u2060', '\ufeff'])}${t.slice(i)}`; } },
  { name: 'soft hyphen', ascii: false, spell: (r, t) => { const i = at(r, t); return `${t.slice(0, i)}\u00ad${t.slice(i)}`; } },
  { name: 'fullwidth', ascii: false, spell: (_r, t) => t.replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0)) },
  { name: 'look-alike', ascii: false, spell: (_r, t) => { const i = [...t].findIndex((c) => LOOK_ALIKE[c]); return i < 0 ? t : `${t.slice(0, i)}${LOOK_ALIKE[t[i]!]}${t.slice(i + 1)}`; } },
  { name: 'URL-encoded', ascii: true, spell: (r, t) => { const n = at(r, t); return [...t].map((c, i) => (i < n ? `%${c.charCodeAt(0).toString(16).padStart(2, '0')}` : c)).join(''); } },
  { name: 'HTML entities', ascii: true, spell: (r, t) => { const n = at(r, t); return [...t].map((c, i) => (i < n ? (r() < 0.5 ? `&#${c.charCodeAt(0)};` : `&#x${c.charCodeAt(0).toString(16)};`) : c)).join(''); } },
  { name: 'split line', ascii: true, spell: (r, t) => { const i = at(r, t); return `${t.slice(0, i)}\n${r() < 0.5 ? '  ' : ''}${t.slice(i)}`; } },
  { name: 'YAML \\u escape', ascii: true, spell: (r, t) => { const i = at(r, t); return `${t.slice(0, i)}\\u${t.charCodeAt(i).toString(16).padStart(4, '0')}${t.slice(i + 1)}`; } },
];
const ENCODINGS: { name: string; encode: (text: string) => string }[] = [
  { name: 'base64', encode: (text) => Buffer.from(text).toString('base64') },
  { name: 'base64url', encode: (text) => Buffer.from(text).toString('base64url') },
  { name: 'hex', encode: (text) => Buffer.from(text).toString('hex') },
  { name: 'base64 twice', encode: (text) => Buffer.from(Buffer.from(text).toString('base64')).toString('base64') },
];

/** A token in a random spelling: a character-level form, sometimes wrapped in an encoding. */
function hiddenToken(random: Random): { rule: string; token: string; text: string; spelled: string; how: string } {
  const { rule, token } = randomToken(random);
  const form = pick(random, FORMS);
  const spelled = form.spell(random, token);
  let text = spelled;
  let how = form.name;
  if (form.ascii && random() < 0.35) {
    const encoding = pick(random, ENCODINGS);
    text = encoding.encode(text);
    how = `${encoding.name} of ${how}`;
  }
  return { rule, token, text, spelled, how };
}

const PROSE = ['The deploy failed', 'We rotated it after the incident', 'Set it in the CI settings', 'See the runbook'];
const context = (random: Random, hidden: string) => pick(random, [`${pick(random, PROSE)}: ${hidden}`, `key = ${hidden}`, `\`${hidden}\``, `"${hidden}",`, `${pick(random, PROSE)} (${hidden}).`]);

function timed<T>(family: Tally, run: () => T): T | undefined {
  const started = Date.now();
  try {
    const result = run();
    if (Date.now() - started > HANG_MS) family.hung++;
    return result;
  } catch {
    family.crashed++;
    return undefined;
  }
}

describe(`seeded fuzz of the secrets gate and capture (seed ${SEED})`, () => {
  it(`secret bypass variants: ${CASES} spellings are each found as the token they spell, and redacted`, () => {
    const family = tally('secret bypass variants (scan)');
    const random = seededRandom(SEED);
    const wrong: string[] = [];
    for (let n = 0; n < CASES; n++) {
      const { rule, token, text, spelled, how } = hiddenToken(random);
      const line = context(random, text);
      family.tried++;
      const found = timed(family, () => scanText('lessons/cases/x.md', line, rules, new Set()));
      const redacted = timed(family, () => redactText(line, rules).text);
      const fingerprint = secretFingerprint(rule, token);
      // A token whose first line alone matches its rule is taken to end with its line (a token at a line's end is not joined to the next line's word): reported and redacted as that part.
      const head = spelled.split('\n')[0]!;
      const part = how.endsWith('split line') && scanText('x', head, rules, new Set()).find((match) => match.rule === rule);
      const wanted = part ? part.fingerprint : fingerprint;
      const ok = found?.some((match) => match.fingerprint === wanted) && redacted !== undefined && !scanText('x', redacted, rules, new Set()).some((match) => match.fingerprint === wanted || match.fingerprint === fingerprint);
      if (!ok) {
        family.wrong++;
        wrong.push(`${how} (${rule}): ${JSON.stringify(line)}`);
      }
    }
    expect(wrong, `seed ${SEED}`).toEqual([]);
    expect(family.crashed + family.hung).toBe(0);
  });

  it('secret bypass variants through the built guard: each blocks the commit', async () => {
    const family = tally('secret bypass variants (guard, built binary)');
    const random = seededRandom(SEED + 1);
    const root = await committedLessonsRepo();
    for (let n = 0; n < 6; n++) {
      const { text, how } = hiddenToken(random);
      const id = `case-2026-03-0${n + 1}-fuzz`;
      fs.rmSync(path.join(root, 'lessons/cases', `case-2026-03-0${n}-fuzz.md`), { force: true });
      const files = lessonFile({ id }, `## Situation\n\n${context(random, text)}\n\n## Prevention Checklist\n\n- [ ] x\n`);
      for (const [rel, content] of Object.entries(files)) fs.writeFileSync(path.join(root, rel), content);
      git(root, 'add', '-A');
      family.tried++;
      const result = runLessons(['guard', '--stage', 'pre-commit', '--json'], { cwd: root, env: {} });
      if (result.exitCode === -1) family.hung++;
      else if (![0, 1].includes(result.exitCode) || /\n\s+at .+:\d+:\d+/.test(result.stderr)) family.crashed++;
      else if (!(JSON.parse(result.stdout) as { findings: { gate: string; file: string }[] }).findings.some((finding) => finding.gate === 'secrets' && finding.file === `lessons/cases/${id}.md`)) family.wrong++;
      expect(family, `seed ${SEED + 1}, case ${n} (${how})`).toMatchObject({ crashed: 0, hung: 0, wrong: 0 });
    }
  }, 120_000);

  it('long-token inputs: the scan of runs of token prefixes and escapes up to 1 MiB ends in linear time', () => {
    const family = tally('long-token inputs (scan)');
    const random = seededRandom(SEED + 2);
    const SHAPES = ['ey-', 'eyJ', 'token', 'token=', 'password: "a!', 'passw0rd=', j('gh', 'p_'), j('xo', 'xb-1-'), 'xapp-1-', 'glpat-', j('sk', '_live_'), 'AKIA', 'AIza', '-----BEGIN ', 'PRIVATE KEY-----\n', 'redis://:', 'postgres://u:', 'Authorization: Basic ', '12345:A', 'abc1Q~', 'QUJD', 'a\u200b', '\\_', '%67', '&#103;', '\uff47', 'a\n', 'SG.', 'hvs.', 'AccountKey='];
    for (let n = 0; n < 12; n++) {
      const size = 64 * 1024 * (1 + Math.floor(random() * 16));
      const parts = Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(random, SHAPES));
      const unit = parts.join(random() < 0.5 ? '' : pick(random, ['', 'x', ' ', '-', '_', '=']));
      const text = unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
      family.tried++;
      timed(family, () => scanText('lessons/cases/long.md', text, rules, new Set()));
      timed(family, () => redactText(text, rules));
      expect(family, `seed ${SEED + 2}, case ${n}: ${JSON.stringify(unit)} x ${size}`).toMatchObject({ crashed: 0, hung: 0 });
    }
  }, 120_000);

  it('long-token inputs through the built guard: a 1 MiB lesson of them is judged within the bound', async () => {
    const family = tally('long-token inputs (guard, built binary)');
    const root = await committedLessonsRepo();
    for (const unit of ['ey-', `token=${j('gh', 'p_')}`, 'a\u200b&#103;%67\\_\n']) {
      const body = unit.repeat(Math.ceil((1024 * 1024) / unit.length));
      const files = lessonFile({ id: 'case-2026-04-04-long' }, `## Situation\n\n${body}\n\n## Prevention Checklist\n\n- [ ] x\n`);
      for (const [rel, content] of Object.entries(files)) fs.writeFileSync(path.join(root, rel), content);
      git(root, 'add', '-A');
      family.tried++;
      const result = runLessons(['guard', '--stage', 'pre-commit'], { cwd: root, env: {} });
      if (result.exitCode === -1) family.hung++;
      else if (![0, 1].includes(result.exitCode) || /\n\s+at .+:\d+:\d+/.test(result.stderr)) family.crashed++;
      expect(family, JSON.stringify(unit)).toMatchObject({ crashed: 0, hung: 0 });
    }
  }, 3 * RUN_TIMEOUT_MS);

  /** A [LESSON] block with a hidden token in a random field, and a marker word that is no secret. */
  function secretBlock(random: Random, n: number): { block: string; rule: string; token: string; marker: string; how: string } {
    const { rule, token, text, how } = hiddenToken(random);
    // A line split of a token inside a `key: value` field line would be two lines of the block: fields take single-line spellings.
    const oneLine = text.replace(/\n\s*/g, '');
    const marker = `zebra${n}marker`;
    const fields = { title: `Deploy failed ${marker}`, summary: 'The job stopped.', tags: '[deploy]', commands: '[npm publish]' };
    const where = pick(random, ['title', 'summary', 'tags', 'commands', 'body', 'checklist'] as const);
    if (where === 'title') fields.title = `Deploy failed with ${oneLine} ${marker}`;
    if (where === 'summary') fields.summary = `The key ${oneLine} leaked.`;
    if (where === 'tags') fields.tags = `[deploy, ${oneLine}]`;
    if (where === 'commands') fields.commands = `[curl -H "Authorization: token ${oneLine}"]`;
    const body = where === 'body' ? `We ran it with ${text} set.` : 'We ran it again.';
    const checklist = where === 'checklist' ? `- [ ] Never paste ${text}` : '- [ ] Check the key first';
    const block = `[LESSON]\ntitle: ${fields.title}\nsummary: ${fields.summary}\ntags: ${fields.tags}\ncommands: ${fields.commands}\n\n${body}\n\n## Prevention Checklist\n\n${checklist}\n[/LESSON]`;
    return { block, rule, token, marker, how: `${how} in ${where}` };
  }

  it(`capture of secret-bearing input: ${CASES} blocks are redacted whole, the rest kept`, () => {
    const family = tally('capture of secret-bearing input (redaction)');
    const random = seededRandom(SEED + 3);
    const wrong: string[] = [];
    for (let n = 0; n < CASES; n++) {
      const { block, rule, token, marker, how } = secretBlock(random, n);
      family.tried++;
      const drafts = timed(family, () => extractDrafts(block).map((draft) => redactDraft(draft, rules)));
      if (!drafts || drafts.length !== 1) {
        family.lost++;
        wrong.push(`no draft: ${how}`);
        continue;
      }
      const [{ draft, redacted }] = drafts as [ReturnType<typeof redactDraft>];
      const written = JSON.stringify(draft);
      const strings = [draft.title, draft.summary ?? '', draft.body, ...draft.tags, ...Object.values(draft.triggers ?? {}).flat()];
      const fingerprint = secretFingerprint(rule, token);
      if (!redacted.includes(rule) || strings.some((text) => scanText('x', text, rules, new Set()).some((match) => match.fingerprint === fingerprint))) {
        family.wrong++;
        wrong.push(`${how}: ${JSON.stringify(block)}`);
      }
      if (!draft.title.includes(marker) || !written.includes('Prevention Checklist')) {
        family.lost++;
        wrong.push(`lost: ${how}`);
      }
    }
    expect(wrong, `seed ${SEED + 3}`).toEqual([]);
  });

  it('capture of secret-bearing input through the built CLI: no token on disk, the lesson written', async () => {
    const family = tally('capture of secret-bearing input (CLI, built binary)');
    const random = seededRandom(SEED + 4);
    for (let n = 0; n < 4; n++) {
      // A repository each: a near-duplicate of an earlier case would bump it instead of writing.
      const root = await committedLessonsRepo();
      const { block, token, marker, how } = secretBlock(random, n);
      family.tried++;
      const result = runLessons(['capture', '-'], { cwd: root, input: block });
      if (result.exitCode === -1) family.hung++;
      else if (result.exitCode !== 0) family.crashed++;
      const lessons = fs.readdirSync(path.join(root, 'lessons/cases')).map((name) => `${name}\n${fs.readFileSync(path.join(root, 'lessons/cases', name), 'utf8')}`).join('\n');
      const index = fs.readFileSync(path.join(root, 'lessons/index.json'), 'utf8');
      if ((lessons + index).includes(token) || !/secrets redacted before writing/.test(result.stdout)) family.wrong++;
      if (!lessons.includes(marker)) family.lost++;
      expect(family, `seed ${SEED + 4}, case ${n} (${how})`).toMatchObject({ crashed: 0, hung: 0, wrong: 0, lost: 0 });
    }
  }, 120_000);
});
