/**
 * `--to copilot`: GitHub Copilot's repository custom instructions
 * (https://docs.github.com/en/copilot/how-tos/configure-custom-instructions/add-repository-instructions):
 * `.github/copilot-instructions.md` applies to every request, so the lessons that apply
 * everywhere (no trigger paths, or alwaysApplies) go in a marked section of it; each lesson
 * with trigger paths gets `.github/instructions/lessons-<id>.instructions.md` (the name must end
 * in `.instructions.md`), whose frontmatter `applyTo` holds the globs, comma-separated.
 * Copilot code review reads only the first 4,000 characters of any custom instruction file
 * (https://docs.github.com/en/copilot/concepts/prompting/response-customization); Chat and the
 * cloud agent read it all.
 */
import type { IndexEntry } from '../index/build.js';
import { alwaysApplies, Lines, ownedFile, ruleBody } from './lesson-text.js';
import { sectionLines } from './render.js';
import type { ExportTargetDeclaration, OwnedFiles, ReadLimit, Rendered } from './target.js';

const OWNED: OwnedFiles = { dir: '.github/instructions', prefix: 'lessons-', suffix: '.instructions.md' };

const CODE_REVIEW: ReadLimit = {
  reader: 'Copilot code review',
  max: 4000,
  unit: 'characters',
  source: 'https://docs.github.com/en/copilot/concepts/prompting/response-customization',
  note: 'Copilot Chat and the cloud agent read the whole file',
};

const appliesEverywhere = (entry: IndexEntry): boolean => entry.triggers.paths.length === 0 || alwaysApplies(entry);

function instructionsFile(entry: IndexEntry): Rendered {
  const lines = new Lines().push('---', `applyTo: ${JSON.stringify(entry.triggers.paths.join(','))}`, '---');
  return ruleBody(lines, entry, 'copilot').at(ownedFile(OWNED, entry), CODE_REVIEW);
}

export const COPILOT = {
  name: 'copilot',
  writes: 'a .github/copilot-instructions.md section and .github/instructions/lessons-*.instructions.md',
  sectionFiles: ['.github/copilot-instructions.md'],
  owned: OWNED,
  plan: (entries, bin) => {
    const also = 'Lessons about particular files are in `.github/instructions/lessons-*.instructions.md`, applied to the files they name.';
    const empty = '(No lesson applies to every file.)';
    const section = sectionLines(entries.filter(appliesEverywhere), 'copilot', { bin, also, empty }).at('.github/copilot-instructions.md', CODE_REVIEW);
    return { sections: [section], files: entries.filter((entry) => !appliesEverywhere(entry)).map(instructionsFile) };
  },
} as const satisfies ExportTargetDeclaration<'copilot'>;
