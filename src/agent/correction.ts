/**
 * A user's correction of a repeated mistake, recognised in a prompt (UserPromptSubmit), so the
 * agent is asked to record the lesson. The phrases are data, here only: English ones from the
 * experience-learning hooks design (ADR-004: "you forgot", "you missed", repeated mistakes) and
 * the issue ("again", "still broken", "you did the same thing", "regression", "keeps failing"),
 * Korean ones from the experience-memory plan's QA-feedback trigger ("또 안 돼", "비슷한 실수",
 * "왜 반복돼", "고쳤는데 깨졌"). English phrases match whole words ("again" is not "against",
 * "still broken" is not "stillborn"); Korean ones match inside a word, spaces optional, since
 * Korean attaches endings ("깨졌어", "깨졌네").
 */
export const CORRECTION_PHRASES: readonly string[] = [
  'again',
  'still broken',
  'still failing',
  'still fails',
  'still not working',
  'still does not work',
  "still doesn't work",
  'you did the same thing',
  'same mistake',
  'same error',
  'regression',
  'regressed',
  'keeps failing',
  'keep failing',
  'kept failing',
  'you forgot',
  'you missed',
  '또 안 돼',
  '또 안 되',
  '비슷한 실수',
  '왜 반복돼',
  '왜 반복되',
  '고쳤는데 깨졌',
];

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function phrasePattern(phrase: string): string {
  if (/^[\x20-\x7e]+$/.test(phrase)) return `\\b${phrase.split(' ').map(escape).join('\\s+')}\\b`;
  return phrase.split(' ').map(escape).join('\\s*');
}

const CORRECTION = new RegExp(CORRECTION_PHRASES.map(phrasePattern).join('|'), 'iu');

/** The correction phrase a prompt uses, or undefined. */
export function correctionPhrase(prompt: string): string | undefined {
  return CORRECTION.exec(prompt.replace(/[\u2018\u2019]/g, "'"))?.[0];
}

/** The instruction added to the prompt's context: record the lesson, naming the existing one that matches. */
export function recordInstruction(phrase: string, match: { id: string; title: string } | undefined): string {
  const lines = [
    `lessons: this prompt reads as a correction of a repeated mistake ("${phrase}"). Once it is fixed, record the lesson in your answer as a block:`,
    '[LESSON]',
    'title: <what went wrong, in a few words>',
    '<what happened and why>',
    '- <a check that would have caught it>',
    '[/LESSON]',
  ];
  if (match) lines.push(`It may be the existing lesson ${match.id} ("${match.title}"): if so, use that title, so it is counted as a repeat rather than written twice.`);
  return lines.join('\n');
}
