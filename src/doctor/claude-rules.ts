/**
 * Claude Code rules that never load. A rule in `.claude/rules/` (any depth) whose frontmatter
 * has `paths` is read only when Claude works with a file those globs match
 * (https://code.claude.com/docs/en/memory#path-specific-rules); when no file of the repository
 * matches, the rule never reaches the agent, and nothing says so. `lessons export --to
 * claude-rules` writes `paths` from a lesson's trigger paths, so a trigger glob that matches no
 * file (renamed folder, typo) is such a rule.
 */
import path from 'node:path';
import { walkFiles, readRegularTextWithin } from '../io/fs.js';
import { repositoryFiles } from '../io/git/log.js';
import { isDirectory } from '../io/paths.js';
import { markdownFrontmatter } from '../lesson/parse.js';
import { pathsMatcher } from '../util/glob.js';
import { check, type Check } from './check.js';

const RULES_DIR = '.claude/rules';
/** A rule file is markdown for the agent: past this it is not a rule anyone meant. */
const MAX_RULE_BYTES = 1024 * 1024;

/** What is wrong with one rule's `paths`, or undefined when it loads (or has no `paths`: it loads at every start). */
function neverLoads(rel: string, text: string, matches: (glob: string) => boolean): string | undefined {
  const frontmatter = markdownFrontmatter(text);
  if (frontmatter === undefined) return undefined;
  if ('error' in frontmatter) return `${rel}: its frontmatter does not parse (${frontmatter.error})`;
  const data = frontmatter.data;
  const paths = data !== null && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>).paths : undefined;
  if (paths === undefined) return undefined;
  const globs = typeof paths === 'string' ? [paths] : Array.isArray(paths) && paths.every((glob) => typeof glob === 'string') ? (paths as string[]) : undefined;
  if (globs === undefined || globs.length === 0) return `${rel}: \`paths\` is not a glob or a list of globs`;
  if (globs.some((glob) => matches(glob))) return undefined;
  return `${rel}: no file matches its paths (${globs.join(', ')})`;
}

export async function claudeRulesCheck(root: string): Promise<Check> {
  if (!isDirectory(path.join(root, RULES_DIR))) return check('claude-rules', 'skip', `no Claude Code rules (${RULES_DIR})`);
  const rules = walkFiles(root, { under: RULES_DIR, keepFile: (name) => name.endsWith('.md') });
  if (rules.length === 0) return check('claude-rules', 'skip', `no Claude Code rules (${RULES_DIR})`);
  const files = (await repositoryFiles(root)) ?? walkFiles(root, { skipFolder: (name) => name.startsWith('.') || name === 'node_modules' });
  const matches = pathsMatcher(files);
  const problems: string[] = [];
  for (const rel of rules) {
    const read = readRegularTextWithin(path.join(root, rel), MAX_RULE_BYTES);
    const problem = read.kind === 'text' ? neverLoads(rel, read.text, matches) : `${rel}: cannot be read as a rule (${read.kind === 'too-large' ? `${read.size} bytes` : read.error.code ?? read.error.message})`;
    if (problem !== undefined) problems.push(problem);
  }
  if (problems.length === 0) return check('claude-rules', 'ok', `${rules.length} rule${rules.length === 1 ? '' : 's'} in ${RULES_DIR}, each loads at start or for a file of the repository`);
  return check(
    'claude-rules',
    'warn',
    `Claude Code never loads ${problems.length} rule${problems.length === 1 ? '' : 's'}: ${problems.join('; ')}`,
    "fix the globs (relative to the project root) or drop `paths` so the rule loads at every start; a lessons-<id>.md rule takes them from the lesson's triggers.paths: fix those and run `lessons export --to claude-rules`",
  );
}
