import fs from 'node:fs';
import path from 'node:path';
import { buildIndex } from '../index/build.js';
import { preflightTrailers } from '../io/git-log.js';
import { STATE_DIR, findRepoRoot } from '../io/repo.js';
import { loadLessons } from '../lesson/load.js';
import { loadPolicy } from '../policy/validate-policy.js';
import { toIsoDate } from '../util/dates.js';
import { buildReport, type Report, type ShownInSession } from './report.js';

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
    sessions: hookSessions(root),
  });
}

/**
 * What the agent hooks showed, session by session (.lessons/sessions/*.json, `shown`), dated
 * by the day the session file was last written. Unreadable records are skipped: they are
 * local state, and the report reads them only as evidence.
 */
export function hookSessions(root: string): ShownInSession[] {
  const dir = path.join(root, STATE_DIR, 'sessions');
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((name) => name.endsWith('.json'));
  } catch {
    return [];
  }
  return names.sort().flatMap((name) => {
    try {
      const file = path.join(dir, name);
      const data = JSON.parse(fs.readFileSync(file, 'utf8')) as { shown?: unknown };
      const ids = Array.isArray(data.shown) ? data.shown.filter((id): id is string => typeof id === 'string') : [];
      return ids.length === 0 ? [] : [{ date: toIsoDate(fs.statSync(file).mtime), ids }];
    } catch {
      return [];
    }
  });
}
