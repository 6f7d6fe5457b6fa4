import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BIN, printTable, timeProcess } from './shared.js';
import { generateRepo } from './synthetic.js';

/**
 * Whole-process lifecycle writes (each a locked read-modify-write of the tree plus the index)
 * and `lessons report` (text, and the HTML page), at 1,000 and 10,000 lessons, beside `node -e 0`.
 */
export async function bench(): Promise<void> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'lessons-bench-lifecycle-'));
  try {
    for (const count of [1_000, 10_000]) {
      const repo = path.join(root, String(count));
      const ids = await generateRepo(repo, count, count);
      const caseId = ids[0]!;
      const title = fs.readFileSync(path.join(repo, 'lessons/cases', `${caseId}.md`), 'utf8').match(/^title: (.*)$/m)![1]!.replace(/^"|"$/g, '');
      const runs = count === 1_000 ? 9 : 5;
      const baseline = timeProcess('node -e 0', process.execPath, ['-e', '0'], { runs });
      const capture = timeProcess(`lessons capture, a recurrence (${count})`, process.execPath, [BIN, 'capture', '-'], {
        cwd: repo,
        runs,
        input: `[LESSON]\ntitle: ${title}\n[/LESSON]\n`,
      });
      const accept = timeProcess(`lessons accept (${count})`, process.execPath, [BIN, 'accept', caseId], { cwd: repo, runs });
      const report = timeProcess(`lessons report (${count})`, process.execPath, [BIN, 'report'], { cwd: repo, runs });
      const page = path.join(root, `report-${count}.html`);
      const html = timeProcess(`lessons report --html (${count})`, process.execPath, [BIN, 'report', '--html', page], { cwd: repo, runs });
      printTable(`lifecycle, ${count} lessons (${runs} runs each)`, baseline, [capture, accept, report, html]);
      console.log(`  the HTML page of ${count} lessons: ${fs.statSync(page).size} bytes`);
    }
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}
