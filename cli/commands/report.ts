import path from 'node:path';
import { defineCommand } from '../command.js';
import { parseLikeYargs } from '../fast/like-yargs.js';

const FORMATS = ['text', 'json', 'markdown'] as const;

export default defineCommand<{ json: boolean; format: (typeof FORMATS)[number] | undefined; html: string | undefined; now: string | undefined }>({
  command: 'report',
  describe: 'Aging, use, efficacy, drift and the backlog of the lessons, as text, JSON, markdown or an HTML page',
  example: 'lessons report --html lessons-report.html --format markdown',
  options: {
    json: { type: 'boolean', default: false, describe: 'Print the report as JSON (same as --format json)' },
    format: { type: 'string', choices: FORMATS, describe: 'What to print: text (default), json, or markdown for a job summary or a PR comment' },
    html: { type: 'string', requiresArg: true, describe: 'Also write the report as one self-contained HTML page to <file>' },
    now: { type: 'string', requiresArg: true, describe: 'The date the report describes, YYYY-MM-DD (default: today, UTC)' },
  },
  // Read without yargs: it runs from a bundle of its own (cli/fast/bundle.ts).
  fast: parseLikeYargs,
  handler: async (argv, io) => {
    const { parseReportDate, reportLessons, retrievalHealth, writeHtmlReport } = await import('../../src/report/report-lessons.js');
    const cwd = argv.C ?? process.cwd();
    const now = argv.now === undefined ? new Date() : parseReportDate(argv.now);
    const format = argv.format ?? (argv.json ? 'json' : 'text');
    const report = await reportLessons({ cwd, now, retrieval: await retrievalHealth({ cwd, now }) });
    if (argv.html !== undefined) writeHtmlReport(path.resolve(cwd, argv.html), report);
    const { reportReporters } = await import('../../src/report/reporter.js');
    if (argv.html !== undefined && argv.format === undefined && !argv.json) io.out(`wrote ${argv.html}: ${report.total} lessons, ${report.stale.length} stale, ${report.efficacy.not_working} not working`);
    else io.out(reportReporters[format](report));
    const { unparsedWarning } = await import('../../src/store/query.js');
    for (const file of report.unparsed) io.err(`lessons: ${unparsedWarning(file)}`);
    return report.unparsed.length > 0 ? 1 : 0;
  },
});
