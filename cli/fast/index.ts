import { UsageError } from '../../src/errors.js';
import { resolveCwd } from '../../src/io/repo.js';
import { plural } from '../../src/util/plural.js';
import { io } from '../command.js';
import { parseFastArgs } from './args.js';

const USAGE = `usage: lessons index [--check] [--json] [-C <dir>]
       lessons index --merge <base> <ours> <theirs> [<path>]

Writes lessons/index.json from the lesson files (atomically; the same bytes for an unchanged tree).
  --check   write nothing; exit 1 when the committed lessons/index.json is stale, naming the lessons
            that differ
  --merge   git's merge driver for lessons/index.json (set up by \`lessons init\` and
            \`lessons hooks install\`): merges the three versions lesson by lesson into <ours>;
            exit 1 when both sides changed one lesson differently
  --json    print the result as JSON

example: lessons index && git add lessons/index.json`;

/** `lessons index`: run after every lesson change and in CI, so it skips yargs (about 60 ms). */
export async function run(args: string[]): Promise<0 | 1 | 2> {
  const { values, positionals } = parseFastArgs(
    args,
    { check: { type: 'boolean', default: false }, merge: { type: 'boolean', default: false }, json: { type: 'boolean', default: false } },
    USAGE,
  );
  if (values.help) {
    io.out(USAGE);
    return 0;
  }
  if (values.merge) return merge(positionals, values.json === true);
  if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'\n${USAGE}`);
  const cwd = resolveCwd(values.C);
  const { writeIndex, checkIndex } = await import('../../src/index/command.js');
  if (!values.check) {
    const result = await writeIndex({ cwd });
    io.out(values.json ? JSON.stringify(result, null, 2) : `${result.written ? 'wrote' : 'unchanged:'} ${result.path} (${plural(result.lessons, 'lesson')})`);
    return 0;
  }
  const result = await checkIndex({ cwd });
  if (values.json) {
    io.out(JSON.stringify(result, null, 2));
    return result.fresh ? 0 : 1;
  }
  if (result.fresh) {
    io.out(`${result.path} is up to date`);
    return 0;
  }
  const { added, removed, changed } = result.diff;
  const lines = [result.missing ? `${result.path} is missing: run \`lessons index\` and commit it` : `${result.path} is stale: run \`lessons index\` and commit it`];
  if (added.length > 0) lines.push(`  not in the index: ${added.join(', ')}`);
  if (removed.length > 0 && !result.missing) lines.push(`  no longer in the tree: ${removed.join(', ')}`);
  if (changed.length > 0) lines.push(`  changed: ${changed.join(', ')}`);
  if (!result.missing && added.length + removed.length + changed.length === 0) lines.push("  the lessons are the same; only the file's formatting differs");
  io.err(lines.join('\n'));
  return 1;
}

/** `lessons index --merge %O %A %B %P`: git runs it at the top of the working tree during a merge. */
async function merge(positionals: string[], json: boolean): Promise<0 | 1> {
  const [base, ours, theirs, shown = 'lessons/index.json', ...extra] = positionals;
  if (base === undefined || ours === undefined || theirs === undefined || extra.length > 0) {
    throw new UsageError(`lessons index --merge takes the three versions git passes: <base> <ours> <theirs> [<path>]\n${USAGE}`);
  }
  const { mergeIndexFiles } = await import('../../src/index/command.js');
  const result = await mergeIndexFiles({ base, ours, theirs });
  if (json) io.out(JSON.stringify(result, null, 2));
  if (result.merged) return 0;
  const lines = result.conflicts.map((conflict) => `  ${conflict}`);
  io.err(`lessons: ${shown}: cannot merge the index lesson by lesson:\n${lines.join('\n')}\nresolve the lesson files, then run \`lessons index\` and \`git add ${shown}\``);
  return 1;
}
