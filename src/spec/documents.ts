/**
 * The spec-first documents of references/spec-first-flow.md (requirements, design, tasks) for a
 * feature, as text; pure. Each carries the lessons preflight selected for the feature where that
 * stage needs them: the requirements name them, the design turns their checklists into
 * constraints, the tasks into checks.
 */
import type { SelectedLesson } from '../preflight/report.js';

export const SPEC_DOCUMENTS = ['requirements', 'design', 'tasks'] as const;
export type SpecDocument = (typeof SPEC_DOCUMENTS)[number];

const FLOW = 'references/spec-first-flow.md';

function lessonLines(lessons: readonly SelectedLesson[], feature: string): string[] {
  if (lessons.length === 0) return [`\`lessons preflight ${JSON.stringify(feature)}\` selected no lessons for this feature.`];
  return lessons.flatMap((lesson) => [
    `- \`${lesson.id}\` (${lesson.level}, ${lesson.severity}): ${lesson.title}`,
    ...lesson.checklist.map((item) => `  - [ ] ${item}`),
  ]);
}

function checks(lessons: readonly SelectedLesson[]): string[] {
  const items = lessons.flatMap((lesson) => lesson.checklist.map((item) => `- [ ] ${item} (\`${lesson.id}\`)`));
  return items.length > 0 ? items : ['- [ ] '];
}

export function specDocuments(feature: string, lessons: readonly SelectedLesson[]): Record<SpecDocument, string> {
  const requirements = [
    `# Requirements: ${feature}`,
    '',
    `Stage 1 of ${FLOW}: what the change must do, for whom, and how we will know it works.`,
    'Each requirement has a stable id and an acceptance criterion a reviewer can check: a command, its exit code, its output.',
    '',
    '## Lessons that apply',
    '',
    `Selected by \`lessons preflight ${JSON.stringify(feature)}\`: an old mistake in this area is cheapest to honour before the design exists.`,
    '',
    ...lessonLines(lessons, feature),
    '',
    '## Requirements',
    '',
    '- R1: <what the change must do>. Acceptance: <command, exit code, output>.',
    '',
    '## Out of scope',
    '',
    '- <what this change will not do>',
    '',
  ];
  const design = [
    `# Design: ${feature}`,
    '',
    `Stage 2 of ${FLOW}: decide how, before writing code. Read requirements.md first.`,
    '',
    '## Lessons to design against',
    '',
    'Each checklist item below is a constraint the design must meet, or say why it does not apply.',
    '',
    ...lessonLines(lessons, feature),
    '',
    '## Modules touched',
    '',
    '## Data formats',
    '',
    '## Failure modes',
    '',
    '## Generated files and the commands that regenerate them',
    '',
    '## One-way steps and how they are staged',
    '',
    '## Alternatives rejected',
    '',
  ];
  const tasks = [
    `# Tasks: ${feature}`,
    '',
    `Stage 3 of ${FLOW}: tasks small enough for one short-lived branch each, every one mapped to requirements.`,
    '',
    '## Tasks',
    '',
    '- T1 -> R1: <the task>. Files: <paths>. Done-check: `<command>`.',
    '',
    '## Checks from the lessons',
    '',
    ...checks(lessons),
    '',
    '## Before each task',
    '',
    'Run `lessons preflight "T<n>: <task>" --path <files>` and report the lessons it selects in the first status update;',
    'before the final answer, run `lessons guard --stage final`.',
    '',
  ];
  return { requirements: requirements.join('\n'), design: design.join('\n'), tasks: tasks.join('\n') };
}
