import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildIndex, serializeIndex } from '../../src/index/build.js';
import { lintTree } from '../../src/lint/lint.js';
import { loadLessons } from '../../src/lesson/load.js';
import { resolvePolicy } from '../../src/policy/policy.js';
import { validateAgainst } from '../../src/schema/validate.js';
import { generateRepo } from '../bench/synthetic.js';
import { runCli, tempDir, writeFiles } from '../helpers/repo.js';

describe('a large tree (built binary)', () => {
  it('indexes and lints exactly as the library does in-process', async () => {
    const root = tempDir();
    await generateRepo(root, 2_600, 7);
    fs.rmSync(path.join(root, 'lessons/index.json'));
    writeFiles(root, { 'lessons/principles/zz-broken.md': '---\nid: [oops\n---\n', 'lessons/cases/zz-bad-id.md': '---\nid: Bad Id\ntitle: T\nlevel: case\nstatus: candidate\n---\n' });
    const refused = runCli(['index'], { cwd: root });
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain('lessons/principles/zz-broken.md: malformed YAML');
    expect(refused.stderr).toContain('lessons/cases/zz-bad-id.md: id must be kebab-case');
    fs.rmSync(path.join(root, 'lessons/principles/zz-broken.md'));
    fs.rmSync(path.join(root, 'lessons/cases/zz-bad-id.md'));

    expect(runCli(['index'], { cwd: root }).exitCode).toBe(0);
    const tree = loadLessons(root);
    expect(fs.readFileSync(path.join(root, 'lessons/index.json'), 'utf8')).toBe(serializeIndex(buildIndex(tree.lessons)));

    const linted = runCli(['lint', '--json'], { cwd: root });
    const expected = lintTree({ tree, policy: resolvePolicy({}), today: new Date().toISOString().slice(0, 10), schemaErrors: (d) => validateAgainst('lesson', d) });
    expect(JSON.parse(linted.stdout)).toEqual(JSON.parse(JSON.stringify(expected)));
  });
});
