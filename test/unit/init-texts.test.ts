import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { AGENTS_BEGIN, AGENTS_BLOCK, AGENTS_END, upsertAgentsBlock } from '../../src/init/agents-block.js';
import { workflowYaml } from '../../src/init/workflow.js';

describe('the AGENTS.md block', () => {
  it('tells agents to run preflight at the start, report it, and run the final guard', () => {
    expect(AGENTS_BLOCK.startsWith(`${AGENTS_BEGIN}\n`)).toBe(true);
    expect(AGENTS_BLOCK.endsWith(`${AGENTS_END}\n`)).toBe(true);
    expect(AGENTS_BLOCK).toContain('`lessons preflight "<task>"`');
    expect(AGENTS_BLOCK).toContain('first status update');
    expect(AGENTS_BLOCK).toContain('`lessons guard --stage final`');
    expect(AGENTS_BLOCK).toContain('Before asking a person a question, run `lessons ask "<question>"`');
    expect(AGENTS_BLOCK).toContain('`lessons spec new "<feature>"`');
  });

  it('is created, appended, kept, or replaced only with force, keeping the rest', () => {
    expect(upsertAgentsBlock(undefined, false)).toEqual({ text: `# Agent instructions\n\n${AGENTS_BLOCK}`, action: 'created' });
    expect(upsertAgentsBlock('# Mine\nrules', false)).toEqual({ text: `# Mine\nrules\n\n${AGENTS_BLOCK}`, action: 'updated' });
    const current = `before\n\n${AGENTS_BLOCK}after\n`;
    expect(upsertAgentsBlock(current, false)).toEqual({ text: current, action: 'unchanged' });
    const edited = `before\n\n${AGENTS_BEGIN}\nmine\n${AGENTS_END}\nafter\n`;
    expect(upsertAgentsBlock(edited, false)).toEqual({ text: edited, action: 'differs' });
    expect(upsertAgentsBlock(edited, true)).toEqual({ text: `before\n\n${AGENTS_BLOCK}after\n`, action: 'updated' });
  });
});

describe('the workflow', () => {
  it('checks out the whole history, fetches the locked sources and runs lint, index --check and the ci guard', () => {
    const yaml = workflowYaml({ how: 'npm-ci', lockfile: 'package-lock.json' });
    expect(yaml).toContain('fetch-depth: 0');
    expect(yaml).toContain('node-version: 20');
    expect(yaml).toContain('  run: npm ci\n');
    for (const step of ['sources update --locked', 'lint', 'index --check', 'guard --stage ci']) expect(yaml).toContain(`run: npx --no-install lessons ${step}\n`);
    // The sources are at their locked commits before lint resolves references into them.
    expect(yaml.indexOf('sources update --locked')).toBeLessThan(yaml.indexOf('lessons lint'));
    const global = workflowYaml({ how: 'global', spec: 'lessons@1.2.3', fromRegistry: true });
    expect(global).toContain('  run: npm install --global lessons@1.2.3\n');
    expect(global).toContain('add it as a dev dependency (npm install -D <git URL of lessons>#<tag or commit>)');
    expect(global).toContain('run: lessons lint\n');
  });

  it('installs with `npm install --no-save` of the spec package.json gives when the repository has no lockfile', () => {
    const workflow = workflowYaml({ how: 'no-save', spec: 'lessons@git+https://git.example/acme/lessons.git#v0.1.0' });
    expect(workflow).not.toContain('run: npm ci');
    expect(workflow).toContain('  run: npm install --no-save lessons@git+https://git.example/acme/lessons.git#v0.1.0\n');
    expect(workflow).toContain('run: npx --no-install lessons guard --stage ci\n');
    // A spec with what sh or YAML would read is quoted, and the workflow still parses to that command.
    const odd = yaml.load(workflowYaml({ how: 'no-save', spec: 'lessons@>=0.1.0 <0.2.0' })) as { jobs: { lessons: { steps: { name?: string; run?: string }[] } } };
    expect(odd.jobs.lessons.steps.find((step) => step.name === 'Install lessons')?.run?.trim()).toBe("npm install --no-save 'lessons@>=0.1.0 <0.2.0'");
  });
});

describe('the workflow: the lessons report', () => {
  it('puts the markdown report in the job summary and uploads the HTML page on a push to the default branch, at the end of the job', () => {
    const workflow = yaml.load(workflowYaml({ how: 'npm-ci', lockfile: 'package-lock.json' })) as {
      on: { push: { branches: string[] } };
      jobs: { lessons: { steps: { name?: string; if?: string; run?: string; uses?: string; with?: Record<string, string> }[] } };
    };
    expect(workflow.on.push.branches).toEqual(['main', 'master']);
    const [report, upload] = workflow.jobs.lessons.steps.slice(-2);
    expect(report).toEqual({
      name: 'Lessons report',
      if: '${{ !cancelled() }}',
      run: 'npx --no-install lessons report --html lessons-report.html --format markdown >> "$GITHUB_STEP_SUMMARY"',
    });
    expect(upload).toEqual({
      name: 'Upload the lessons report',
      if: "${{ !cancelled() && github.event_name == 'push' && github.ref_name == github.event.repository.default_branch }}",
      uses: 'actions/upload-artifact@v4',
      with: { name: 'lessons-report', path: 'lessons-report.html' },
    });
  });
});

describe("this repository's own workflow", () => {
  it('runs lint, index --check and the ci guard on pull requests with the whole history', async () => {
    const fs = await import('node:fs');
    const path = await import('node:path');
    const { PACKAGE_ROOT } = await import('../helpers/repo.js');
    const yaml = fs.readFileSync(path.join(PACKAGE_ROOT, '.github/workflows/lessons.yml'), 'utf8');
    expect(yaml).toContain('  pull_request:');
    expect(yaml).toContain('fetch-depth: 0');
    expect(yaml).toContain('node-version: 20');
    expect(yaml).toContain('- run: npm ci');
    for (const step of ['sources update --locked', 'lint', 'index --check', 'guard --stage ci']) expect(yaml).toContain(`run: node dist/cli/lessons.js ${step}\n`);
  });
});
