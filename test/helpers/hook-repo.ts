/** A small lessons repository for the agent-hook tests: three lessons with triggers, indexed. */
import { writeIndex } from '../../src/store/index-write.js';
import { lessonFile } from './lessons.js';
import { tempLessonsRepo } from './repo.js';

export const MANIFEST_ID = 'case-2026-01-01-version-bump-missed-manifest';
export const FORCE_PUSH_ID = 'pattern-never-force-push-main';
export const SECRETS_ID = 'principle-keep-secrets-out-of-git';

const MANIFEST_BODY = `## Situation

A release went out.

## Prevention Checklist

- [ ] Every manifest carries the new version in the bump commit.
- [ ] CI compares each manifest version with the tag.
`;

const FORCE_BODY = `## Situation

Main was rewritten.

## Prevention Checklist

- [ ] Protected branches refuse force pushes.
`;

const SECRETS_BODY = `## Situation

A token leaked.

## Prevention Checklist

- [ ] Secret scanning runs before every push.
`;

export async function hookRepo(): Promise<string> {
  const root = tempLessonsRepo({
    ...lessonFile(
      {
        id: MANIFEST_ID,
        title: 'Version bump missed the manifest',
        severity: 'high',
        status: 'validated',
        tags: ['release', 'versioning'],
        triggers: { tools: ['Edit', 'Write', 'Bash'], paths: ['**/package.json'], commands: ['npm publish*', 'npm version*'], keywords: ['version bump'] },
      },
      MANIFEST_BODY,
    ),
    ...lessonFile(
      {
        id: FORCE_PUSH_ID,
        level: 'pattern',
        title: 'Never force push the main branch',
        severity: 'critical',
        status: 'canonical',
        tags: ['git'],
        source_case_ids: [],
        triggers: { tools: ['Bash'], commands: ['git push --force*', 'git push -f*'] },
      },
      FORCE_BODY,
    ),
    ...lessonFile(
      {
        id: SECRETS_ID,
        level: 'principle',
        title: 'Keep secrets out of git',
        severity: 'high',
        status: 'canonical',
        tags: ['secrets'],
        triggers: { paths: ['**/.env*'] },
      },
      SECRETS_BODY,
    ),
  });
  await writeIndex({ cwd: root });
  return root;
}
