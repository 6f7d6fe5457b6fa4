/** The GitHub Actions workflow `lessons init` writes to .github/workflows/lessons.yml. */
export const WORKFLOW_FILE = '.github/workflows/lessons.yml';

/**
 * Checks every pull request: the sources' lessons at their locked commits (nothing when the
 * policy names none), lint, a fresh index, and the guard over the PR's commits.
 * `fetch-depth: 0` gives the guard the base branch's history for the range and the trailers.
 * With lessons in package.json, `npm ci` installs the pinned version; otherwise it is
 * installed globally at `version`.
 */
export function workflowYaml(options: { inPackageJson: boolean; version: string }): string {
  const install = options.inPackageJson ? 'npm ci' : `npm install --global lessons@${options.version}`;
  const bin = options.inPackageJson ? 'npx --no-install lessons' : 'lessons';
  return `name: lessons

on:
  pull_request:

permissions:
  contents: read

jobs:
  lessons:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
        with:
          fetch-depth: 0
      - uses: actions/setup-node@v4
        with:
          node-version: 20
      - run: ${install}
      - name: Fetch the sources' lessons at their locked commits
        run: ${bin} sources update --locked
      - name: Lint the lessons
        run: ${bin} lint
      - name: Check that lessons/index.json is fresh
        run: ${bin} index --check
      - name: Guard the pull request
        run: ${bin} guard --stage ci
`;
}
