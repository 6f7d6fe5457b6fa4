import { buildIndex } from '../index/build.js';
import { preflightTrailers } from '../io/git/log.js';
import { findRepoRoot } from '../io/repo.js';
import { loadLessons } from '../lesson/load.js';
import { loadPolicy } from '../policy/validate-policy.js';
import { toIsoDate } from '../util/dates.js';
import { buildReport, type Report } from './report.js';

export async function reportLessons(options: { cwd: string; now: Date }): Promise<Report> {
  const root = findRepoRoot(options.cwd);
  const { lessons } = loadLessons(root);
  const index = buildIndex(lessons);
  // The first of two files with one id is the lesson, as in the index; lint reports the clash.
  const chosen = new Set(index.lessons.map((entry) => entry.path));
  return buildReport({
    lessons: lessons.filter((item) => chosen.has(item.path)).map((item) => item.lesson),
    index: index.lessons,
    policy: loadPolicy(root),
    today: toIsoDate(options.now),
    trailers: await preflightTrailers(root),
  });
}
