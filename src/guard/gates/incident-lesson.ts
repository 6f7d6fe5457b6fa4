import { incidentIssues } from '../commits.js';
import { defaultLevels, type GateCheck, type GateDeclaration } from './gate.js';

/** A commit that resolves an incident (the policy's `incident` subjects and trailers) leaves a lesson behind, or says why not (commits.ts). */
export const incidentLessonGate: GateCheck = (input) => {
  if (input.commits === undefined) return [];
  return incidentIssues({
    commits: input.commits,
    patterns: input.incidentPatterns.block,
    warnPatterns: input.incidentPatterns.warn,
    trailerKeys: input.policy.incident.trailers,
    caseChanged: input.changedPaths.some((rel) => rel.startsWith('lessons/cases/') && rel.endsWith('.md')),
    lessonIds: input.checked?.ids ?? new Set(input.head.tree.lessons.map((item) => item.lesson.id)),
  });
};

export const incidentLesson: GateDeclaration = { name: 'incident-lesson', levels: defaultLevels('off', 'warn', 'block'), check: incidentLessonGate };
