import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AGENTS_BLOCK, upsertAgentsBlock } from '../../src/init/agents-block.js';
import { PACKAGE_ROOT } from '../helpers/repo.js';

describe("this repository's AGENTS.md", () => {
  it('carries the block `lessons init` writes, unchanged, so init leaves it alone', () => {
    const text = fs.readFileSync(path.join(PACKAGE_ROOT, 'AGENTS.md'), 'utf8');
    expect(text).toContain(AGENTS_BLOCK);
    expect(upsertAgentsBlock(text, false).action).toBe('unchanged');
  });
});
