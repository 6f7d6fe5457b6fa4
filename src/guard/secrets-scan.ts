/**
 * What the secrets gate reads: every lesson file of the checked side (raw text and the values
 * its YAML decodes to), the generated files lessons are copied into, and with scope `change`
 * every other changed file. The scanning itself is pure (secrets.ts).
 */
import { CURSOR_RULES_DIR, CURSOR_RULE_PREFIX } from '../export/render.js';
import { INDEX_FILE } from '../io/repo.js';
import { ID_PATTERN } from '../lesson/model.js';
import type { Policy } from '../policy/policy.js';
import { sha256 } from '../util/digest.js';
import type { LessonCache } from './lesson-cache.js';
import { scanDecoded, scanText, type CompiledRule, type DecodedValue, type SecretMatch } from './secrets.js';
import type { Snapshot } from './snapshot.js';

/** Files `lessons init` and `lessons export` fill with lesson text: a token in a lesson lands there too. */
export const GENERATED_FILES = ['CLAUDE.md', 'AGENTS.md'] as const;

function text(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}

/** Raw text and, for JSON, the decoded string values (`\u0067` escapes hide nothing). */
function scanFile(rel: string, bytes: Uint8Array, rules: readonly CompiledRule[]): SecretMatch[] {
  const raw = text(bytes);
  const matches = scanText(rel, raw, rules, new Set());
  if (rel.endsWith('.json')) {
    // A line that holds a whole value (lessons/index.json has one lesson a line) is decoded on
    // its own, so a match names its line; then the whole document, for what spans lines.
    const values: DecodedValue[] = [];
    raw.split('\n').forEach((line, n) => {
      const value = parsedJson(line.trim().replace(/,$/, ''));
      if (value !== undefined && typeof value === 'object') values.push({ line: n + 1, value });
    });
    const whole = parsedJson(raw);
    if (whole !== undefined) values.push({ line: 1, value: whole });
    matches.push(...scanDecoded(rel, values, rules, matches));
  }
  return matches;
}

function parsedJson(text: string): unknown {
  if (!/^[[{]/.test(text)) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Every match on the side, before the allowlist. Lesson files are scanned whatever their size
 * or content (a NUL byte or 1 MiB more hides nothing; lint refuses such files separately) and
 * memoised in the cache by content and rule set.
 */
export async function scanSecrets(policy: Policy, rules: readonly CompiledRule[], head: Snapshot, changed: readonly string[], cache: LessonCache): Promise<SecretMatch[]> {
  const digest = sha256(JSON.stringify(policy.secrets.rules));
  const unknown = head.lessonFiles.filter((file) => file.entry.secrets?.digest !== digest);
  const contents = new Map(head.knownBytes);
  const unread = unknown.filter((file) => !contents.has(file.path)).map((file) => file.path);
  for (const [rel, bytes] of await head.readFiles(unread)) contents.set(rel, bytes);
  for (const file of unknown) {
    const raw = scanText(file.path, text(contents.get(file.path) ?? new Uint8Array()), rules, new Set());
    const loaded = file.entry.loaded;
    const values = loaded ? Object.entries(loaded.data).map(([key, value]) => ({ line: new Map(loaded.keyLines).get(key) ?? 1, value })) : [];
    const matches = [...raw, ...scanDecoded(file.path, values, rules, raw)];
    file.entry.secrets = { digest, matches: matches.map(({ file: _file, ...match }) => match) };
    cache.touch();
  }
  const matches: SecretMatch[] = head.lessonFiles.flatMap((file) => (file.entry.secrets?.matches ?? []).map((match) => ({ file: file.path, ...match })));
  const lessonPaths = new Set(head.lessonFiles.map((file) => file.path));
  const generated = [
    ...GENERATED_FILES,
    ...head.tree.lessons.map((item) => item.lesson.id).filter((id) => ID_PATTERN.test(id)).map((id) => `${CURSOR_RULES_DIR}/${CURSOR_RULE_PREFIX}${id}.mdc`),
  ];
  const others = policy.secrets.scope === 'change' ? changed.filter((rel) => !lessonPaths.has(rel)) : [];
  const extra = [...new Set([...generated, ...others])].filter((rel) => rel !== INDEX_FILE);
  if (head.indexText !== undefined) matches.push(...scanFile(INDEX_FILE, Buffer.from(head.indexText), rules));
  for (const [rel, bytes] of await head.readFiles(extra)) matches.push(...scanFile(rel, bytes, rules));
  return matches;
}
