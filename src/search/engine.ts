/**
 * The search engine's interface: everything outside src/search imports from here, nothing from
 * the engine's other files. How the cache is laid out (segments, deltas, varint postings, the
 * WebAssembly kernels) stays behind it.
 *
 * - open and update: the cache of a repository's lessons (`openSearch`, brought up to date with
 *   lessons/index.json when stale), an index made in memory, the sources' segment;
 * - query: a SearchIndex's postings, dictionary and triggers, and the score loops and signal
 *   values the ranking (src/preflight/rank.ts) runs them with;
 * - text: how the engine splits, stems and relates words, for callers that must agree with it;
 * - similarity: near-duplicate lessons (capture, new, report).
 */

// Open and update.
export { openSearch, refreshSearch, updateSearch, searchFromLessons, CACHE_FILE, SEARCH_LOCK, type OpenedSearch, type SearchOptions } from './cache.js';
export { isFresh, lessonFoldersMtime, lockBytes, openCached, openSources, sourcesKey, statIndex, SOURCES_CACHE_FILE } from './open.js';
export { buildSearchIndex, buildSegment, narrative } from './build.js';
export { indexLines, IndexLineSource, type IndexLine } from './delta.js';
export { memorySource, SEARCH_FORMAT_VERSION } from './segment.js';

// Query.
export { FIELD_BIT, FIELDS, postingBytes, SearchIndex, type DocRecord, type Field, type LessonSignals, type PostingPart, type PostingPlan, type TriggerRow } from './search-index.js';
export { Workspace, type KernelKind, type Run } from './kernels.js';
export { TABLE, type ScoreInput } from './score-signals.js';
export { scoreValues } from './score-values.js';
export { expandTerm, lowerBound, type Dictionary } from './expand.js';
export { matchTriggers, type TriggerMatch } from './triggers.js';
export { relationSupport } from './software-relations.js';

// Text.
export { acronymsAt, MAX_WORD_LENGTH, stem, terms, words, type Acronyms } from './text.js';
export { shippedAcronyms, shippedAcronymsText } from './acronyms.js';
export { VOCABULARY } from './vocabulary.js';
export { parseThesaurus, readThesaurus, readThesaurusText, THESAURUS_FILES } from './update.js';

// Similarity.
export {
  comparableText,
  fingerprint,
  foldText,
  likelyAlike,
  prefixWitnesses,
  similarGroups,
  similarity,
  spellings,
  words as similarityWords,
  type Comparable,
  type Fingerprint,
} from './similarity.js';
export { lessonsLike, memo, stemmedRelatives, textModelPrints } from './text-model.js';
