import path from 'node:path';
import { LessonsError, UsageError } from '../errors.js';
import { withLock } from '../io/lock.js';
import { writeFileAtomic } from '../io/fs.js';
import { removeIfExists } from '../io/paths.js';
import { findRepoRoot } from '../io/repo.js';
import { loadLessons } from '../lesson/load.js';
import { ID_MAX_LENGTH, ID_PATTERN, LEVEL_FOLDERS, type Lesson } from '../lesson/model.js';
import { baseId } from './new.js';
import { serializeLesson } from '../lesson/serialize.js';
import { patternEvidence, principleEvidence } from '../lesson/evidence.js';
import { promotedLesson, type PromoteTarget } from './promote.js';
import { loadPolicy } from '../policy/validate-policy.js';
import { uniqueSorted } from '../util/compare.js';
import { toIsoDate } from '../util/dates.js';
import { branchExists, checkedOutCommit, commitOnNewBranch, SourceGitError } from '../sources/git.js';
import { sourceLessonLookup } from '../sources/applications.js';
import { policySources, readLock } from '../sources/lock-file.js';
import { SOURCES_LOCK, checkoutDir, splitQualifiedId } from '../sources/model.js';

export interface PromoteToSourceOptions {
  cwd: string;
  now: Date;
  ids: string[];
  to: PromoteTarget;
  title: string;
  id?: string | undefined;
  /** The source of the policy the new lesson goes to. */
  source: string;
}

export interface PromoteToSourceResult {
  source: string;
  id: string;
  level: PromoteTarget;
  /** The new lesson's path inside the source repository. */
  path: string;
  branch: string;
  commit: string;
  /** The lessons it stands on, by their ids here. */
  evidence: string[];
  /** Those of them in its source_case_ids / source_pattern_ids: the source's own lessons, by their ids there (the only ones its lint can resolve). */
  recorded: string[];
  /** The command that pushes the branch; never run by `lessons`. */
  push: string[];
}

/**
 * Writes a new pattern or principle, promoted from lessons of this repository (and the
 * source's own patterns), into a new branch of the source's checkout, committed with its
 * evidence named and ready to push. Nothing is pushed and nothing local changes. The evidence
 * is judged by the same rules as a local promotion.
 */
export async function promoteToSource(options: PromoteToSourceOptions): Promise<PromoteToSourceResult> {
  const title = options.title.trim();
  if (title === '') throw new UsageError('the title is empty: lessons promote <id>... --to pattern --title "<what they have in common>" --to-source <name>');
  if (options.id !== undefined && (!ID_PATTERN.test(options.id) || options.id.length > ID_MAX_LENGTH)) {
    throw new UsageError(`--id \`${options.id}\` is not a valid id: use lower-case words joined by - (at most ${ID_MAX_LENGTH} characters)`);
  }
  const root = findRepoRoot(options.cwd);
  const policy = loadPolicy(root);
  const source = policySources(policy).find((candidate) => candidate.name === options.source);
  if (source === undefined) throw new UsageError(`no source named \`${options.source}\` in the policy: name one of ${policy.sources.map((s) => s.name).join(', ') || '(none: add sources to policy/workflow-policy.json)'}`);
  return withLock(root, SOURCES_LOCK, async () => {
    const dir = checkoutDir(root, source.name);
    const locked = readLock(root).find((entry) => entry.name === source.name)?.commit;
    const at = checkedOutCommit(dir);
    if (locked === undefined || at !== locked) {
      throw new LessonsError('REFUSED', `source \`${source.name}\` is not checked out at its locked commit: run \`lessons sources update\` first`, 1);
    }
    const local = new Map(loadLessons(root).lessons.map((item) => [item.lesson.id, item.lesson] as const));
    const fromSource = sourceLessonLookup(root, policy);
    const lookup = (id: string): Lesson | undefined => local.get(id) ?? fromSource.get(id);
    const unknown = options.ids.filter((id) => lookup(id) === undefined);
    if (unknown.length > 0) throw new LessonsError('REFUSED', `cannot promote: no lesson \`${unknown[0]}\` here or in a fetched source (\`lessons list\` shows the local ones)`, 1);
    const evidence = options.to === 'pattern' ? patternEvidence(options.ids, lookup) : principleEvidence(options.ids, lookup);
    if (!evidence.ok) throw new LessonsError('REFUSED', `cannot promote to a ${options.to} of \`${source.name}\`: ${evidence.missing}`, 1);
    const today = toIsoDate(options.now);
    const origin = path.basename(root);
    /** The id in the source of one of its own lessons (`<source>:<id>` here); undefined for any other lesson. */
    const ownId = (one: string): string | undefined => (splitQualifiedId(one)?.source === source.name ? splitQualifiedId(one)!.id : undefined);
    const taken = new Set([...fromSource.keys()].map(ownId).filter((one) => one !== undefined));
    const id = options.id ?? baseId(options.to, title, today);
    if (taken.has(id)) throw new UsageError(`source \`${source.name}\` already has a lesson \`${id}\`: choose another --id`);
    const branch = `lessons/promote-${id}`;
    if (await branchExists(dir, branch)) throw new UsageError(`the checkout of \`${source.name}\` already has a branch ${branch}: push or delete it, or choose another --id`);
    const ids = uniqueSorted(options.ids);
    // The source's own lessons by their ids there; the rest by where they live, which its lint cannot look into.
    // (A lesson's id here is the one it was asked for by: a source's lessons come qualified.)
    const named = ({ id: one }: Lesson): string => (ownId(one) !== undefined ? `\`${ownId(one)}\`` : `\`${one}\` of ${origin}${one.includes(':') ? "'s sources" : ''}`);
    const lesson = promotedLesson(id, title, options.to, ids.map((one) => lookup(one)!), today, named);
    // Only what the source can resolve goes into its fields; the Sources section and the commit message name all of it.
    const resolvable = ids.map(ownId).filter((one) => one !== undefined);
    const written: Lesson = { ...lesson, source_case_ids: options.to === 'pattern' ? resolvable : [], source_pattern_ids: options.to === 'principle' ? resolvable : [] };
    const rel = `${source.path}/${LEVEL_FOLDERS[options.to]}/${id}.md`;
    const file = path.join(dir, rel);
    writeFileAtomic(file, serializeLesson(written));
    const message = [
      `Add ${options.to} ${id}: ${title}`,
      '',
      `Promoted in ${origin} from ${ids.length} ${options.to === 'pattern' ? 'independent cases' : 'patterns applied in distinct contexts'}, its evidence:`,
      ...ids.map((one) => `- ${named(lookup(one)!)}: ${lookup(one)!.title}`),
    ].join('\n');
    let commit: string;
    try {
      commit = await commitOnNewBranch(dir, branch, locked, [rel], message);
    } catch (error) {
      removeIfExists(file);
      if (error instanceof SourceGitError) throw new LessonsError('GIT', `cannot commit to the checkout of \`${source.name}\`: ${error.message}`);
      throw error;
    }
    return { source: source.name, id, level: options.to, path: rel, branch, commit, evidence: ids, recorded: resolvable, push: ['git', '-C', `.lessons/sources/${source.name}`, 'push', 'origin', branch] };
  });
}
