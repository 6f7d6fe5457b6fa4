/**
 * What the agent hooks do when the repository is broken: they fall back (the lesson files
 * scanned instead of an unreadable index, the default policy instead of an invalid one) and
 * collect one line per problem, saying what is broken and which command fixes it. The hook
 * shows those lines once per session in the harness's visible channel (claude.ts, cursor.ts).
 */
import path from 'node:path';
import type { IndexEntry } from '../index/build.js';
import { INDEX_FILE, POLICY_FILE } from '../io/repo.js';
import { readPolicyFile } from '../io/policy-file.js';
import { DEFAULT_POLICY, resolvePolicy, type Policy } from '../policy/policy.js';
import { UNCHAINED, chained, parseIndexEntries } from '../index/read.js';
import { pathExists } from '../io/paths.js';
import { readIndexText } from '../io/index-file.js';
import { isUsableEntry } from './index-read.js';
import { readSession, updateSession } from './session.js';

/** Problems found during one hook run; each says what to run to fix it. */
export type Problems = string[];

export const CRITICAL_GATES = ['off', 'deny', 'ask'] as const;
export type CriticalGate = (typeof CRITICAL_GATES)[number];

const isCount = (value: unknown, min: number): boolean => Number.isInteger(value) && (value as number) >= min;

/**
 * The policy fields the hooks read, checked without the schema validator (too slow to load on
 * every tool call): the first one that is wrong, or undefined. `lessons doctor` runs the full schema.
 */
export function hookPolicyProblem(policy: Policy): string | undefined {
  const { quotas, hook_max: hookMax } = policy.preflight ?? {};
  for (const level of ['principle', 'pattern', 'case'] as const) {
    if (!isCount(quotas?.[level], 0)) return `preflight.quotas.${level}`;
  }
  if (!isCount(hookMax, 1)) return 'preflight.hook_max';
  if (policy.preflight.related_max !== undefined && !isCount(policy.preflight.related_max, 0)) return 'preflight.related_max';
  if (!(CRITICAL_GATES as readonly unknown[]).includes(policy.hooks?.critical_gate)) return 'hooks.critical_gate';
  const projects: unknown = policy.projects;
  if (typeof projects !== 'object' || projects === null || Array.isArray(projects)) return 'projects';
  for (const [name, globs] of Object.entries(projects)) {
    if (!Array.isArray(globs) || !globs.every((glob) => typeof glob === 'string')) return `projects.${name}`;
  }
  return undefined;
}

/** The policy for a hook: the repository's, or the default one (with a problem) when it cannot be used. */
export function hookPolicy(root: string, problems: Problems): Policy {
  let policy: Policy;
  try {
    policy = resolvePolicy(readPolicyFile(root).data);
  } catch (error) {
    problems.push(`lessons: ${(error as Error).message.split('; ')[0]}; the hooks use the default policy until it is fixed (\`lessons doctor\` says what is wrong)`);
    return DEFAULT_POLICY;
  }
  const field = hookPolicyProblem(policy);
  if (field === undefined) return policy;
  problems.push(`lessons: ${POLICY_FILE} is invalid at \`${field}\`; the hooks use the default policy until it is fixed (\`lessons doctor\` says what is wrong)`);
  return DEFAULT_POLICY;
}

/** The index entries for a hook: lessons/index.json, or the lesson files scanned (with a problem) when it is missing, broken or not as `lessons index` writes it. */
export async function hookIndexEntries(root: string, problems: Problems): Promise<IndexEntry[]> {
  let why: string;
  const text = readIndexText(root);
  const entries = text === undefined ? undefined : parseIndexEntries(text);
  if (entries && chained(entries)) return entries.filter(isUsableEntry);
  // Lines that do not follow the ones they name: a merge kept both sides' lines (docs/index-merge.md).
  if (entries) why = UNCHAINED;
  else if (text === undefined) why = pathExists(path.join(root, INDEX_FILE)) ? `${INDEX_FILE} cannot be read` : `${INDEX_FILE} is missing`;
  else why = looksLikeJson(text) ? `${INDEX_FILE} is not an index` : `${INDEX_FILE} is not valid JSON (truncated?)`;
  problems.push(`lessons: ${why}; the hooks scan the lesson files instead: run \`lessons index\` (and \`lessons lint\` if it refuses)`);
  try {
    const [{ loadLessons }, { buildIndex }] = await Promise.all([import('../lesson/load.js'), import('../index/build.js')]);
    return buildIndex(loadLessons(root).lessons).lessons;
  } catch {
    return [];
  }
}

function looksLikeJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** The problems not yet reported in this session (`reported`), once each; pure. */
export function unreported(problems: readonly string[], reported: readonly string[]): string[] {
  const seen = new Set(reported);
  return [...new Set(problems)].filter((problem) => !seen.has(problem));
}

/**
 * The text to show for `problems`, each once per session: recorded as reported when shown.
 * Without a session id there is nothing to remember them by, so they are shown every time.
 */
export async function noticeOnce(root: string, sessionId: string | undefined, problems: readonly string[]): Promise<string | undefined> {
  if (problems.length === 0) return undefined;
  const fresh = unreported(problems, sessionId ? readSession(root, sessionId).notified : []);
  if (fresh.length === 0) return undefined;
  if (sessionId) {
    try {
      await updateSession(root, sessionId, { notified: fresh });
    } catch {
      // A state directory that cannot be written only means the notice may come again.
    }
  }
  return fresh.join('\n');
}
