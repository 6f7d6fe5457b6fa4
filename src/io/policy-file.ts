import path from 'node:path';
import { LessonsError } from '../errors.js';
import { readRegularFile } from './fs.js';
import { POLICY_FILE } from './repo.js';
import { parseJsonWithin } from '../util/json-depth.js';

export interface RawPolicy {
  path: string;
  data: unknown;
  exists: boolean;
}

/** Reads policy/workflow-policy.json as JSON, without judging it (an absent file is an empty policy). */
export function readPolicyFile(root: string): RawPolicy {
  const file = path.join(root, POLICY_FILE);
  let text: string;
  try {
    text = readRegularFile(file, 'policy').toString('utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { path: POLICY_FILE, data: {}, exists: false };
    throw new LessonsError('INVALID_POLICY', `cannot read ${POLICY_FILE}: ${(error as Error).message}`);
  }
  try {
    return { path: POLICY_FILE, data: parseJsonWithin(text), exists: true };
  } catch (error) {
    throw new LessonsError('INVALID_POLICY', `${POLICY_FILE} is not valid JSON: ${(error as Error).message}; fix the file or restore it with \`git checkout ${POLICY_FILE}\``);
  }
}
