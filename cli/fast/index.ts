import fs from 'node:fs';
import path from 'node:path';
import { UsageError } from '../../src/errors.js';
import type { IndexedTree } from '../../src/store/index-write.js';
import { findRepoRoot, resolveCwd } from '../../src/io/repo.js';
import { plural } from '../../src/util/plural.js';
import { io } from '../command.js';
import type { IndexFlags } from '../commands/index.js';

/** `lessons index`: run after every lesson change and in CI. */
export async function indexCommand({ values, positionals, hint }: IndexFlags): Promise<0 | 1 | 2> {
  if (values.merge) return merge(positionals, values.json === true, hint);
  if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'\n${hint}`);
  const cwd = resolveCwd(values.C);
  const { writeIndex, checkIndex } = await import('../../src/store/index-write.js');
  const { progressFor } = await import('../../src/io/progress.js');
  const progress = progressFor('index', { stream: process.stderr, env: process.env, quiet: values.json === true || values.quiet === true });
  if (!values.check) {
    // A person waits here anyway: bring preflight's search cache along, so the next preflight or hook finds it fresh (a
    // repository where nobody runs preflight, CI say, has none to bring). With the tree handed over, that includes a lesson
    // whose body alone changed, which leaves the index as it was.
    const { CACHE_FILE, lessonFoldersMtime } = await import('../../src/search/engine.js');
    const root = findRepoRoot(cwd);
    const searched = fs.existsSync(path.join(root, CACHE_FILE));
    // Taken before the tree is read: a lesson added after it leaves the search cache stale for the next preflight to see.
    const foldersMtime = searched ? lessonFoldersMtime(root) : 0;
    const afterwards = async (result: { written: boolean }, tree: IndexedTree | undefined): Promise<void> => {
      if (!searched || (!result.written && tree === undefined)) return;
      progress.say('updating the search cache');
      try {
        (await (await import('../../src/search/engine.js')).updateSearch(root, { handover: tree && { tree, foldersMtime } })).close();
      } finally {
        progress.end();
      }
    };
    const result = await writeIndex({ cwd, progress, afterwards });
    io.out(values.json ? JSON.stringify(result, null, 2) : `${result.written ? 'wrote' : 'unchanged:'} ${result.path} (${plural(result.lessons, 'lesson')})`);
    return 0;
  }
  const result = await checkIndex({ cwd, progress });
  if (values.json) {
    io.out(JSON.stringify(result, null, 2));
    return result.fresh ? 0 : 1;
  }
  if (result.fresh) {
    io.out(`${result.path} is up to date`);
    return 0;
  }
  const { indexStaleness } = await import('../../src/index/diff.js');
  const { headline, details } = indexStaleness(result.missing, result.diff);
  io.err([`${headline}: run \`lessons index\` and commit it`, ...details.map((detail) => `  ${detail}`)].join('\n'));
  return 1;
}

/** `lessons index --merge %O %A %B %P`: git runs it at the top of the working tree during a merge. */
async function merge(positionals: string[], json: boolean, hint: string): Promise<0 | 1> {
  const [base, ours, theirs, shown = 'lessons/index.json', ...extra] = positionals;
  if (base === undefined || ours === undefined || theirs === undefined || extra.length > 0) {
    throw new UsageError(`lessons index --merge takes the three versions git passes: <base> <ours> <theirs> [<path>]\n${hint}`);
  }
  const { mergeIndexFiles } = await import('../../src/store/index-write.js');
  const result = await mergeIndexFiles({ base, ours, theirs });
  if (json) io.out(JSON.stringify(result, null, 2));
  if (result.merged) return 0;
  const lines = result.conflicts.map((conflict) => `  ${conflict}`);
  io.err(`lessons: ${shown}: cannot merge the index lesson by lesson:\n${lines.join('\n')}\nresolve the lesson files, then run \`lessons index\` and \`git add ${shown}\``);
  return 1;
}
