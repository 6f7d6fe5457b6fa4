/**
 * What the secrets gate reads: every lesson file of the checked side (raw text and the values
 * its YAML decodes to), the generated files lessons are copied into, and with scope `change`
 * every other changed file. The scanning itself is pure (secrets.ts).
 */
import { INDEX_FILE, LESSONS_DIR } from '../io/repo.js';
import { ID_PATTERN } from '../lesson/model.js';
import { resolvePolicy, type Policy } from '../policy/policy.js';
import type { LessonFileCache } from '../store/worktree.js';
import type { FactsWanted } from '../lesson/facts.js';
import { compileSecretRules, scanDecoded, scanText, type CompiledRule, type SecretMatch } from './rules.js';
import { scanFile, scanIndexText, scanOfUpdate, type ScannedIndex } from './index-scan.js';
import type { IndexBytes, IndexLines } from '../index/update.js';
import { readPolicyFile } from '../io/policy-file.js';
import { sha256 } from '../util/digest.js';
import type { Snapshot } from '../guard/snapshot.js';

function text(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}

/** The files lesson text is copied into (the export targets' sections and rule files): a token in a lesson lands there too. */
export interface GeneratedFiles {
  files: readonly string[];
  /** Folders of rule files, one a lesson: `<dir>/<prefix><id><suffix>`. */
  rules: readonly { dir: string; prefix: string; suffix: string }[];
}

/** Changes when the scan itself changes (views.ts): matches cached by an older scan are not reused. */
const SCANNER_VERSION = 2;

/** The digest of a policy's secret rules: cached matches hold for the rules they were found with. */
export function secretRulesDigest(policy: Policy): string {
  return sha256(`${SCANNER_VERSION}\0${JSON.stringify(policy.secrets.rules)}`);
}

/**
 * How a lesson file is scanned, for its facts: its raw text and the values its YAML decodes to.
 * Lesson files are scanned whatever their size or content (a NUL byte or 1 MiB more hides
 * nothing; lint refuses such files separately).
 */
export function lessonSecretScan(policy: Policy, rules: readonly CompiledRule[]): NonNullable<FactsWanted['secrets']> {
  return {
    digest: secretRulesDigest(policy),
    scan: (rel, bytes, item) => {
      const raw = scanText(rel, text(bytes), rules, new Set());
      const values = item ? Object.entries(item.parsed.data).map(([key, value]) => ({ line: item.parsed.keyLines.get(key) ?? 1, value })) : [];
      return [...raw, ...scanDecoded(rel, values, rules, raw)].map(({ file: _file, ...match }) => match);
    },
  };
}

/** A version of lessons/index.json scanned before with these rules, and its text, when git still has it. */
async function scannedBefore(head: Omit<Snapshot, 'tree' | 'lessonFiles'>, blob: string, digest: string, cache: LessonFileCache): Promise<ScannedIndex | undefined> {
  for (const version of cache.versions(INDEX_FILE)) {
    const secrets = version.facts.secrets;
    if (version.blob === blob || secrets?.digest !== digest || secrets.index === undefined) continue;
    const bytes = await head.readBlob?.(version.blob);
    if (bytes !== undefined) return { text: text(bytes), scan: secrets.index };
  }
  return undefined;
}

/** The matches of lessons/index.json, by its blob id from the cache, or scanned (its text read, the lines a version scanned before holds taken from it) and kept. */
async function indexMatches(head: Omit<Snapshot, 'tree' | 'lessonFiles'>, rules: readonly CompiledRule[], digest: string, cache: LessonFileCache): Promise<SecretMatch[]> {
  const blob = head.indexBlob;
  if (blob === undefined) return [];
  const cached = cache.get(INDEX_FILE, blob)?.secrets;
  if (cached?.digest === digest) return cached.matches.map((match) => ({ file: INDEX_FILE, ...match }));
  const indexText = await head.readIndex();
  if (indexText === undefined) return [];
  const { matches, scan } = scanIndexText(indexText, rules, await scannedBefore(head, blob, digest, cache));
  cache.set(INDEX_FILE, blob, { problems: [], secrets: { digest, matches: matches.map(({ file: _file, ...match }) => match), ...(scan ? { index: scan } : {}) } });
  return matches;
}

/**
 * The index's scan carried over an update (carryIndexScan() in store/index-memo.ts), for the rules of
 * the policy file as it stands: what the pre-commit guard scans with once it validated the
 * file. A policy that cannot be read, or rules that do not compile, leave the scan to the guard.
 */
export function carryIndexSecrets(root: string, cache: LessonFileCache, before: { blob: string; bytes: IndexBytes }, after: string, lines: IndexLines): void {
  const previous = cache.get(INDEX_FILE, before.blob)?.secrets;
  if (previous?.index === undefined || cache.get(INDEX_FILE, after)?.secrets !== undefined) return;
  let policy: Policy;
  try {
    policy = resolvePolicy(readPolicyFile(root).data);
  } catch {
    return;
  }
  const digest = secretRulesDigest(policy);
  const rules = compileSecretRules(policy.secrets);
  if (previous.digest !== digest || 'error' in rules) return;
  const carried = scanOfUpdate({ bytes: before.bytes, scan: previous.index }, lines, rules);
  if (carried) cache.set(INDEX_FILE, after, { problems: [], secrets: { digest, matches: carried.matches.map(({ file: _file, ...match }) => match), index: carried.scan } });
}

/** What the secrets scan needs of a side's lessons: each lesson file's matches, its paths and its lessons' ids. */
export interface LessonSecrets {
  matches: SecretMatch[];
  /** Whether a path is a lesson file of the side. */
  paths: { has(path: string): boolean };
  ids: Iterable<string>;
}

/** A side's lessons for the scan, from its whole tree. */
export function lessonSecrets(head: Snapshot): LessonSecrets {
  return {
    matches: head.lessonFiles.flatMap((file) => (file.facts.secrets?.matches ?? []).map((match) => ({ file: file.path, ...match }))),
    paths: new Set(head.lessonFiles.map((file) => file.path)),
    ids: head.tree.lessons.map((item) => item.lesson.id),
  };
}

/**
 * Every match on the side, before the allowlist: the lesson files' from their facts (scanned
 * when their facts were made: `lessons`, from the side's tree or the guard's table),
 * lessons/index.json's by its blob, and the generated files and, with scope `change`,
 * every other changed file, read and scanned each time.
 */
export async function scanSecrets(
  policy: Policy,
  rules: readonly CompiledRule[],
  head: Omit<Snapshot, 'tree' | 'lessonFiles'>,
  changed: readonly string[],
  cache: LessonFileCache,
  lessons: LessonSecrets,
  generated: GeneratedFiles,
): Promise<SecretMatch[]> {
  const matches: SecretMatch[] = [...lessons.matches];
  const lessonPaths = lessons.paths;
  // A lesson's rule file (`.cursor/rules/lessons-<id>.mdc`, `.windsurf/rules/lessons-<id>.md`, …), for the lessons the side holds (a listing of each folder, not a lookup per lesson).
  const ids = new Set([...lessons.ids].filter((id) => ID_PATTERN.test(id)));
  const copies = [...generated.files];
  for (const { dir, prefix, suffix } of generated.rules) {
    const start = `${dir}/${prefix}`;
    copies.push(...(await head.listFolder(dir)).filter((rel) => rel.startsWith(start) && rel.endsWith(suffix) && ids.has(rel.slice(start.length, -suffix.length))));
  }
  // Every other changed file under lessons/ whatever the scope (notes, backups, evals, a lesson at the wrong path are shared with the lessons), and with scope `change` every changed file.
  const others = changed.filter((rel) => !lessonPaths.has(rel) && (policy.secrets.scope === 'change' || rel.startsWith(`${LESSONS_DIR}/`)));
  const extra = [...new Set([...copies, ...others])].filter((rel) => rel !== INDEX_FILE);
  matches.push(...(await indexMatches(head, rules, secretRulesDigest(policy), cache)));
  for (const [rel, bytes] of await head.readFiles(extra)) matches.push(...scanFile(rel, bytes, rules));
  return matches;
}
