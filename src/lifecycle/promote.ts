import { UsageError } from '../errors.js';
import { checklistItems } from '../lesson/body.js';
import { CHECKLIST_HEADING, SEVERITIES, candidateLesson, TRIGGER_KEYS, emptyTriggers, type Lesson } from '../lesson/model.js';
import { baseId, checkedId } from './new.js';
import { uniqueSorted } from '../util/compare.js';
import { changeLessons, freeId, lookupIn, pathOf, refuse, type ChangeOptions } from './change.js';
import { patternEvidence, principleEvidence } from '../lesson/evidence.js';

export type PromoteTarget = 'pattern' | 'principle';

export interface PromoteOptions extends ChangeOptions {
  sources: string[];
  to: PromoteTarget;
  title: string;
  id?: string | undefined;
}

export interface PromoteResult {
  id: string;
  path: string;
  level: PromoteTarget;
  sources: string[];
  checklist: number;
}

/**
 * Writes a new pattern from >= 2 independent cases, or a new principle from patterns applied in
 * >= 3 contexts. The sources stay, gain a `promoted_to` back-link, and are listed in the new
 * lesson, whose checklist starts as the union of theirs. Refused, naming what is missing,
 * when the evidence is not there.
 */
export async function promoteLessons(options: PromoteOptions): Promise<PromoteResult> {
  const title = options.title.trim();
  if (title === '') throw new UsageError('the title is empty: lessons promote <id>... --to pattern --title "<what the sources have in common>"');
  if (title.length > 200) throw new UsageError(`the title is ${title.length} characters long; keep it under 200`);
  if (options.id !== undefined) checkedId(options.id);
  // A source's pattern (`platform:pattern-x`) counts with its applications recorded here too.
  const fromSources = options.sources.some((id) => id.includes(':')) ? await sourcesLookup(options.cwd) : new Map<string, Lesson>();
  return changeLessons(options, (state) => {
    const local = lookupIn(state);
    // The local sources whole: their checklists are gathered, and they are written back with the back-link.
    const whole = new Map<string, Lesson>();
    for (const id of options.sources) {
      const item = state.lessons.find((candidate) => candidate.lesson.id === id);
      if (item && !whole.has(id)) whole.set(id, state.whole(item));
    }
    const lookup = (id: string): Lesson | undefined => whole.get(id) ?? local(id) ?? fromSources.get(id);
    const unknown = options.sources.find((id) => lookup(id) === undefined);
    if (unknown !== undefined && unknown.includes(':')) throw refuse(`cannot promote: no lesson \`${unknown}\` in the fetched sources: check the id, or run \`lessons sources update\``);
    const evidence = options.to === 'pattern' ? patternEvidence(options.sources, lookup) : principleEvidence(options.sources, lookup);
    if (!evidence.ok) throw refuse(`cannot promote to a ${options.to}: ${evidence.missing}`);
    if (options.to === 'principle') {
      const empty = uniqueSorted(options.sources).filter((id) => checklistItems(lookup(id)!.body).length === 0);
      if (empty.length > 0) {
        throw refuse(`cannot promote to a principle: ${empty.map((id) => `\`${id}\``).join(', ')} ${empty.length === 1 ? 'has' : 'have'} an empty Prevention Checklist; a principle gathers the checks its patterns proved, so write them first`);
      }
    }
    if (options.id !== undefined && lookup(options.id)) throw new UsageError(`a lesson with id \`${options.id}\` already exists: choose another --id`);
    const sources = uniqueSorted(options.sources).map((id) => lookup(id)!);
    const id = options.id ?? freeId(state, baseId(options.to, title, state.today));
    const lesson = promotedLesson(id, title, options.to, sources, state.today);
    // Only local lessons get the back-link: a source's lessons live in another repository.
    const backLinked = sources.filter((source) => !source.id.includes(':')).map((source) => ({ lesson: { ...source, promoted_to: uniqueSorted([...source.promoted_to, id]) } }));
    return {
      writes: [{ lesson, create: true }, ...backLinked],
      result: { id, path: pathOf(state, lesson), level: options.to, sources: lesson.level === 'pattern' ? lesson.source_case_ids : lesson.source_pattern_ids, checklist: checklistItems(lesson.body).length },
    };
  });
}

async function sourcesLookup(cwd: string): Promise<Map<string, Lesson>> {
  const { findRepoRoot } = await import('../io/repo.js');
  const { loadPolicy } = await import('../policy/validate-policy.js');
  const { sourceLessonLookup } = await import('../sources/applications.js');
  const root = findRepoRoot(cwd);
  return sourceLessonLookup(root, loadPolicy(root));
}

/**
 * The new lesson: a candidate until a steward reviews the gathered checklist and accepts it.
 * `nameOf` says how its Sources section names each source (by its id here).
 */
export function promotedLesson(id: string, title: string, level: PromoteTarget, sources: readonly Lesson[], today: string, nameOf: (source: Lesson) => string = (source) => `\`${source.id}\``): Lesson {
  const ids = uniqueSorted(sources.map((source) => source.id));
  const projects = uniqueSorted(sources.map((source) => source.project ?? ''));
  const triggers = emptyTriggers();
  for (const key of TRIGGER_KEYS) triggers[key] = uniqueSorted(sources.flatMap((source) => source.triggers[key]));
  return candidateLesson(
    {
      id,
      title,
      level,
      severity: SEVERITIES[Math.max(...sources.map((source) => SEVERITIES.indexOf(source.severity)))] ?? 'medium',
      tags: uniqueSorted(sources.flatMap((source) => source.tags)),
      transferability: level === 'pattern' ? 3 : 4,
      occurrences: sources.reduce((sum, source) => sum + source.occurrences, 0),
      project: projects.length === 1 && projects[0] !== '' ? projects[0]! : null,
      source_case_ids: level === 'pattern' ? ids : [],
      source_pattern_ids: level === 'principle' ? ids : [],
      triggers,
      body: promotedBody(level, sources, nameOf),
    },
    today,
  );

}

function promotedBody(level: PromoteTarget, sources: readonly Lesson[], nameOf: (source: Lesson) => string): string {
  const kind = level === 'pattern' ? 'cases' : 'patterns';
  const seen = new Set<string>();
  const items: string[] = [];
  for (const source of sources) {
    for (const item of checklistItems(source.body)) {
      const key = item.toLowerCase().replace(/\s+/g, ' ').replace(/[.;:!]+$/, '');
      if (seen.has(key)) continue;
      seen.add(key);
      items.push(`- [ ] ${item}`);
    }
  }
  const listed = sources.map((source) => `- ${nameOf(source)}: ${source.title}`);
  return [
    '## Situation',
    '',
    `What the ${sources.length} ${kind} below have in common, and where it applies.`,
    '',
    `## ${CHECKLIST_HEADING}`,
    '',
    ...(items.length > 0 ? items : ['- [ ] ']),
    '',
    '## Sources',
    '',
    `Promoted from ${sources.length} ${kind}; they stay as supporting evidence.`,
    '',
    ...listed,
    '',
  ].join('\n');
}
