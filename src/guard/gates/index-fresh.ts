import { buildIndex, serializeIndex } from '../../index/build.js';
import { parseIndexEntries } from '../../index/read.js';
import { diffIndexes, indexStaleness, type IndexDiff } from '../../index/diff.js';
import { INDEX_FILE } from '../../io/repo.js';
import type { Finding } from '../../lesson/finding.js';
import { STAGE_PROFILES } from '../stages.js';
import { defaultLevels, type GateCheck, type GateDeclaration } from './gate.js';

const NO_DIFF = { added: [], removed: [], changed: [] };

/** The committed (or staged) index is exactly what `lessons index` would write for this tree. */
export const indexFreshGate: GateCheck = (input) => {
  const index = input.index;
  if (index === undefined || index.known) return [];
  const stageHint = STAGE_PROFILES[input.stage].indexFix(INDEX_FILE);
  const staleBy = (diff: IndexDiff): Finding[] => {
    const { headline, details } = indexStaleness(false, diff);
    return [{ rule: 'index-stale', severity: 'error', file: INDEX_FILE, message: `${headline} (${details.join('; ')}): ${stageHint}` }];
  };
  // Known stale, and how, from the staged check's update of the remembered index (gate-input.ts).
  if ('stale' in index) return staleBy(index.stale);
  const fresh = buildIndex(input.head.tree.lessons);
  if (index.text === serializeIndex(fresh)) return [];
  if (index.text === undefined) {
    return [{ rule: 'index-missing', severity: 'error', file: INDEX_FILE, message: `${indexStaleness(true, NO_DIFF).headline}: ${stageHint}` }];
  }
  return staleBy(diffIndexes(parseIndexEntries(index.text) ?? [], fresh.lessons));
};

export const indexFresh: GateDeclaration = { name: 'index-fresh', levels: defaultLevels('block', 'block', 'block'), check: indexFreshGate };
