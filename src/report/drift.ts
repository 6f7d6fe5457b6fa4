/**
 * Drift: where a lesson no longer fits the repository. Trigger paths that match no file, files
 * and npm scripts its body names that are gone, and lessons whose tags and triggers match
 * nothing the repository changed in the last year. Pure: the file list and history are passed in.
 */
import { similarityWords } from '../search/engine.js';
import { codeSnippets, type CodeSnippets } from '../lesson/body.js';
import type { RecentChanges } from '../io/git/log.js';
import type { Lesson } from '../lesson/model.js';
import { pathsMatcher } from '../util/glob.js';
import { compareStrings } from '../util/compare.js';

export interface DriftInput {
  lessons: readonly Lesson[];
  /** The repository's files, relative to its root. */
  files: readonly string[];
  /** The scripts of the root package.json; undefined without one. */
  scripts: ReadonlySet<string> | undefined;
  /** What changed in the last year; undefined without git history. */
  recent: RecentChanges | undefined;
  /** The code each lesson's body names, by id, when the bodies were summarised (the file cache); else read from the body. */
  code?: ReadonlyMap<string, CodeSnippets> | undefined;
}

export interface DeadTrigger {
  id: string;
  glob: string;
}

export interface MissingReference {
  id: string;
  kind: 'file' | 'command';
  reference: string;
}

export interface QuietLesson {
  id: string;
  tags: string[];
  paths: string[];
  keywords: string[];
}

export interface Drift {
  dead_paths: DeadTrigger[];
  missing_references: MissingReference[];
  history_available: boolean;
  /** Live lessons whose tags and triggers match nothing changed in the last year. */
  quiet: QuietLesson[];
}

/** File extensions that make a bare name in a code span a file name rather than, say, `process.env`. */
const FILE_EXTENSIONS = new Set(
  'c cc cfg cjs conf cpp cs css csv go gradle h html ini java js json jsx kt lock md mdx mjs php properties py rb rs scss sh sql svg swift toml ts tsx txt xml yaml yml'.split(' '),
);
/** Bare dot-names that are files; others (`.only`, `.skip`) are more often code. */
const DOTFILES = new Set(['.env', '.gitattributes', '.editorconfig', '.node-version', '.nvmrc', '.tool-versions', '.python-version', '.envrc', '.mailmap']);
const PATH_LIKE = /^(?:\.\/)?[\w@.-]+(?:\/[\w@.-]+)*\/?$/;
const SCRIPT_RUN = /^(?:npm run(?:-script)?|pnpm run|yarn run)\s+([\w:.@/-]+)/;

/** What a code span names, when it names a file or a folder of the repository. */
export function fileReference(span: string): string | undefined {
  if (!PATH_LIKE.test(span) || span.startsWith('../')) return undefined;
  const name = span.replace(/^\.\//, '');
  const last = name.replace(/\/$/, '').split('/').pop()!;
  const extension = last.includes('.') ? last.slice(last.lastIndexOf('.') + 1).toLowerCase() : '';
  const dotfile = /^\.[\w-]+$/.test(last) && (DOTFILES.has(last) || /(?:rc|ignore)$/.test(last) || name.includes('/'));
  const explicit = span.startsWith('./') || span.endsWith('/');
  if (explicit || dotfile || FILE_EXTENSIONS.has(extension)) return name;
  return undefined;
}

export function driftOf(input: DriftInput): Drift {
  const live = input.lessons.filter((lesson) => lesson.status !== 'retired');
  const files = new Set(input.files);
  const folders = new Set<string>();
  const basenames = new Set<string>();
  for (const file of input.files) {
    basenames.add(file.slice(file.lastIndexOf('/') + 1));
    for (let at = file.indexOf('/'); at >= 0; at = file.indexOf('/', at + 1)) folders.add(file.slice(0, at));
  }
  const exists = (name: string): boolean => {
    const plain = name.replace(/\/$/, '');
    return files.has(plain) || folders.has(plain) || (!plain.includes('/') && basenames.has(plain));
  };
  const matches = globMatcher(input.files);
  const dead: DeadTrigger[] = [];
  const missing: MissingReference[] = [];
  for (const lesson of live) {
    for (const glob of new Set(lesson.triggers.paths)) if (!matches(glob)) dead.push({ id: lesson.id, glob });
    const { spans, lines } = input.code?.get(lesson.id) ?? codeSnippets(lesson.body);
    const seen = new Set<string>();
    const add = (kind: MissingReference['kind'], reference: string): void => {
      if (seen.has(`${kind}:${reference}`)) return;
      seen.add(`${kind}:${reference}`);
      missing.push({ id: lesson.id, kind, reference });
    };
    for (const span of spans) {
      const file = fileReference(span);
      if (file !== undefined && !exists(file)) add('file', file);
    }
    if (input.scripts === undefined) continue;
    for (const command of [...spans, ...lines]) {
      const script = SCRIPT_RUN.exec(command)?.[1];
      if (script !== undefined && !input.scripts.has(script)) add('command', command);
    }
  }
  const byId = (a: { id: string }, b: { id: string }): number => compareStrings(a.id, b.id);
  return {
    dead_paths: dead.sort((a, b) => byId(a, b) || compareStrings(a.glob, b.glob)),
    missing_references: missing.sort((a, b) => byId(a, b) || compareStrings(a.reference, b.reference)),
    history_available: input.recent !== undefined,
    quiet: input.recent === undefined ? [] : quietLessons(live, input.recent).sort(byId),
  };
}

/** Whether a path glob matches one of `files`, each glob tried once. */
function globMatcher(files: readonly string[]): (glob: string) => boolean {
  const hits = new Map<string, boolean>();
  const matches = pathsMatcher(files);
  return (glob) => {
    let hit = hits.get(glob);
    if (hit === undefined) hits.set(glob, (hit = matches(glob)));
    return hit;
  };
}

function quietLessons(lessons: readonly Lesson[], recent: RecentChanges): QuietLesson[] {
  const vocabulary = new Set<string>();
  for (const text of [...recent.files, ...recent.subjects]) for (const word of similarityWords(text)) vocabulary.add(word);
  // Tags and keywords repeat across lessons: each is looked up once.
  const answers = new Map<string, boolean>();
  const known = (term: string): boolean => {
    let answer = answers.get(term);
    if (answer === undefined) {
      const terms = similarityWords(term);
      answers.set(term, (answer = terms.length > 0 && terms.every((word) => vocabulary.has(word))));
    }
    return answer;
  };
  const matches = globMatcher(recent.files);
  const quiet: QuietLesson[] = [];
  for (const lesson of lessons) {
    const { tags } = lesson;
    const { paths, keywords } = lesson.triggers;
    if (tags.length + paths.length + keywords.length === 0) continue;
    if (tags.some(known) || keywords.some(known) || paths.some(matches)) continue;
    quiet.push({ id: lesson.id, tags: [...tags], paths: [...paths], keywords: [...keywords] });
  }
  return quiet;
}
