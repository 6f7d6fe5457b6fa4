import fs from 'node:fs';
import path from 'node:path';
import { compareStrings } from '../../src/util/compare.js';
import { fakeToken } from './guard.js';
import { lessonText } from './lessons.js';
import { writeFiles } from './repo.js';

/** A deterministic random sequence (a linear congruential generator). */
export function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

/** Cases, patterns that name them and principles that name the patterns: references for the tree rules to follow. */
export function corpus(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < 24; i++) {
    const id = `case-c${i}`;
    files[`lessons/cases/${id}.md`] = lessonText({ id, title: `Case ${i}`, status: i % 5 === 0 ? 'candidate' : 'validated', ...(i % 7 === 3 ? { duplicate_of: `case-c${i - 1}` } : {}) });
  }
  for (let i = 0; i < 8; i++) {
    const id = `pattern-p${i}`;
    files[`lessons/patterns/${id}.md`] = lessonText({ id, title: `Pattern ${i}`, level: 'pattern', source_case_ids: [`case-c${i * 3}`, `case-c${i * 3 + 1}`, `case-c${i * 3 + 2}`] });
  }
  for (let i = 0; i < 2; i++) {
    const id = `principle-q${i}`;
    files[`lessons/principles/${id}.md`] = lessonText({ id, title: `Principle ${i}`, level: 'principle', source_pattern_ids: [`pattern-p${i * 4}`, `pattern-p${i * 4 + 1}`] });
  }
  return files;
}

/** One random change to the working tree: retitle, a status move, a deletion, a duplicate id, a renamed id, a retirement, a broken file, a new pattern, a token. */
export function mutate(root: string, next: () => number, round: number): void {
  const lessonPaths = ['cases', 'patterns', 'principles'].flatMap((folder) => fs.readdirSync(path.join(root, 'lessons', folder)).map((name) => `lessons/${folder}/${name}`)).sort(compareStrings);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const rel = pick(lessonPaths);
  const file = path.join(root, rel);
  const text = fs.readFileSync(file, 'utf8');
  const caseIds = lessonPaths.filter((p) => p.startsWith('lessons/cases/')).map((p) => path.basename(p, '.md'));
  switch (Math.floor(next() * 10)) {
    case 0:
      return fs.writeFileSync(file, text.replace(/^title: .*$/m, `title: Retitled ${round}`));
    case 1:
      return fs.writeFileSync(file, text.replace(/^status: .*$/m, 'status: candidate'));
    case 2:
      return fs.rmSync(file);
    case 3:
      return writeFiles(root, { [`lessons/cases/a-dup-${round}.md`]: fs.readFileSync(path.join(root, `lessons/cases/${pick(caseIds)}.md`), 'utf8').replace(/^id: .*$/m, `id: ${path.basename(rel, '.md')}`) });
    case 4:
      return fs.writeFileSync(file, text.replace(/^id: (.*)$/m, 'id: $1-renamed'));
    case 5:
      return fs.writeFileSync(file, text.replace(/^status: .*$/m, 'status: retired\nretired_reason: no longer holds'));
    case 6:
      return writeFiles(root, { [`lessons/cases/broken-${round}.md`]: 'not a lesson\n' });
    case 7:
      return writeFiles(root, { [`lessons/patterns/pattern-n${round}.md`]: lessonText({ id: `pattern-n${round}`, title: `New ${round}`, level: 'pattern', status: 'canonical', source_case_ids: [pick(caseIds), pick(caseIds)] }) });
    case 8:
      return fs.writeFileSync(file, text.replace(/^status: .*$/m, 'status: canonical'));
    default:
      return fs.writeFileSync(file, `${text}\nThe deploy key was ${fakeToken('aws')} until round ${round}.\n`);
  }
}

