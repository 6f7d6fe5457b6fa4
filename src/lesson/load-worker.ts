import { parentPort, workerData } from 'node:worker_threads';
import { loadEntries, type LessonEntry, type WorkerLesson } from './load.js';

/** The worker half of loadLessonsParallel: load the entries it is given and post them back. */
const { root, entries, validate } = workerData as { root: string; entries: LessonEntry[]; validate: boolean };
const validator = validate ? (await import('../schema/validate.js')).validateAgainst : undefined;
const tree = loadEntries(root, entries, validator ? (data) => validator('lesson', data) : undefined);
const lessons: WorkerLesson[] = tree.lessons.map((item) => ({
  lesson: item.lesson,
  path: item.path,
  folderLevel: item.folderLevel,
  data: item.parsed.data,
  body: item.parsed.body,
  frontmatter: item.parsed.frontmatter,
  ...(item.schemaErrors ? { schemaErrors: item.schemaErrors } : {}),
}));
parentPort?.postMessage({ lessons, problems: tree.problems });
