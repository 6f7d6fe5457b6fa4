import { LEVELS, SEVERITIES, SOURCES, STATUSES, type Insight, type Kind, type Level, type Severity, type Source, type Status } from '../lesson/model.js';
import { Dictionary, lowerBound } from './expand.js';
import { containsSequence } from './text.js';
import { averageLengths, idfOf, META, META_BYTES, NO_PROJECT } from './fields.js';
import { mergeMeta, mergePostings, type Renumbering } from './merge.js';
import { align4, Segment, type ByteSource, type CorpusStats } from './segment.js';

export { align4, memorySource, type ByteSource } from './segment.js';

/**
 * The search index preflight queries: a base segment, and a delta segment of the lessons
 * changed since the base was built (search-segment.ts has the layout). A query touches only
 * the dictionary, the postings of its terms and the records of the lessons it shows.
 *
 * Text relevance is BM25+ (k1 1.2, b 0.7, delta 0.5, the parameters MiniSearch uses) summed
 * over boosted fields. With a base alone every (term, lesson) pair has its finished score
 * stored; with a delta, the corpus statistics (lesson count, field lengths, document
 * frequencies) are those of both together, so scores are computed from the stored term
 * frequencies and field lengths with the same function (termScore), and equal a full build's.
 *
 * Lessons are numbered in id order over both segments, as a full build numbers them: base
 * lesson i is lesson i - (removed base lessons before i) + (delta lessons sorted before it).
 */

export { averageLengths, bareIdHash, BM25, FIELD_BIT, FIELD_BOOST, FIELDS, idfOf, META, META_BYTES, NO_DATE, NO_PROJECT, termScore, type Field } from './fields.js';

/** The signals ranking needs for every lesson, kept in a fixed-width table. */
export interface DocMeta {
  level: Level;
  status: Status;
  severity: Severity;
  source: Source;
  confidence: number;
  transferability: number;
  occurrences: number;
  /** Days since 1970-01-01 of last_validated_at (or created_at), NO_DATE when neither is set. */
  validatedDay: number;
  project: string | null;
}

export type LessonSignals = Omit<DocMeta, 'project'>;

/** What the output shows about a lesson. */
export interface DocRecord {
  id: string;
  title: string;
  path: string;
  level: Level;
  status: Status;
  severity: Severity;
  tags: string[];
  checklist: string[];
  summary: string;
  keywords: string[];
  /** Absent in caches written before the field existed. */
  kind?: Kind | null;
  insight?: Insight | null;
}

/** Lessons that share their path and command triggers. */
export interface TriggerGroup {
  tools: string[];
  paths: string[];
  commands: string[];
  docs: number[];
}

export interface TriggerRow {
  doc: number;
  tools: string[];
  paths: string[];
  commands: string[];
  /** Keyword phrases of two or more words, as stemmed terms. */
  phrases: string[][];
}

/** A keyword phrase of a lesson whose first term is in the query. */
export interface PhraseRow {
  doc: number;
  terms: string[];
  tools: string[];
}

export interface Postings {
  docs: Uint32Array;
  scores: Float32Array;
  fields: Uint8Array;
}

/**
 * A run of one term's postings as a segment holds them: lesson `offset + docs[i]` scores
 * `scale * scores[i]`. The runs of a term ascend by lesson and do not overlap.
 */
export interface PostingPart extends Postings {
  offset: number;
  scale: number;
}

/**
 * One side's postings of a term before they are read: how many, where its lesson numbers start,
 * the idf factor, and `read`, which reads them into `into` when given (at least
 * postingBytes(count) bytes, 4-aligned; the merged postings of a delta are computed, and ignore it).
 */
export interface PostingPlan {
  count: number;
  offset: number;
  scale: number;
  read: (into?: Uint8Array) => PostingPart;
}

/** The bytes a run of `count` postings takes as stored: lesson numbers, scores, field bits (padded to 4). */
export function postingBytes(count: number): number {
  return count * 8 + align4(count);
}

/** Where the cache came from, so a reader can tell whether it still describes index.json. */
export interface SearchSource {
  digest: string;
  stat: { size: number; mtimeMs: number; ino: number } | null;
  /** Newest lesson-folder mtime at which the tree was checked to give exactly this index. */
  verifiedMtimeMs: number;
  /** The digest of the tree of lesson files `lessons index` handed over when it last brought the cache along (IndexedTree). */
  tree?: string;
}

export interface MetaTables {
  local: DataView;
  sources: DataView;
  localLessons: number;
}

/** A delta and how it renumbers the base (search-merge.ts). */
interface Merge extends Renumbering {
  delta: Segment;
  dead: Set<string>;
}

/** A search index opened over its segments; everything past the headers is read on first use. */
export class SearchIndex {
  readonly docCount: number;
  readonly source: SearchSource;
  private readonly merge: Merge | undefined;
  /** Other repositories' lessons (a sources segment), numbered after the local ones. */
  private readonly sources: Segment | undefined;
  /** The number of local lessons (base and delta). */
  private readonly localCount: number;
  /** Renumbering and the local lessons' statistics when their scores are computed at query time (a delta). */
  private readonly scoring: Renumbering | undefined;
  private dictCache: string[] | undefined;
  private metaCache: MetaTables | undefined;
  /** A bit per bareIdHash value that a local lesson's id has (mayBeLocal). */
  private localHashes: Uint8Array | undefined;

  private constructor(private readonly base: Segment, delta: Segment | undefined, sources: Segment | undefined) {
    const current = delta ?? base;
    const { digest, stat, verifiedMtimeMs, tree } = current.header;
    this.source = { digest, stat, verifiedMtimeMs, ...(tree === undefined ? {} : { tree }) };
    this.sources = sources;
    let local: CorpusStats = { docCount: base.docCount, lengthSums: base.header.lengthSums };
    let renumbering: Renumbering = { removed: new Uint32Array(0), insertAt: new Uint32Array(0), deltaDocs: new Uint32Array(0), docCount: local.docCount, avg: averageLengths(local) };
    if (delta) {
      const removed = delta.u32s('removed');
      const insertAt = delta.u32s('insertAt');
      const deltaDocs = new Uint32Array(delta.docCount);
      for (let j = 0; j < deltaDocs.length; j++) deltaDocs[j] = j + insertAt[j]! - lowerBound(removed, insertAt[j]!);
      local = delta.header.merged!;
      renumbering = { removed, insertAt, deltaDocs, docCount: local.docCount, avg: averageLengths(local) };
      this.merge = { ...renumbering, delta, dead: new Set(delta.lines('dead')) };
    }
    this.localCount = local.docCount;
    this.docCount = local.docCount + (sources?.docCount ?? 0);
    this.scoring = delta ? renumbering : undefined;
  }

  /**
   * Opens the base, with the delta when it was built on this base; undefined when the base is
   * not a search index of this format (and, given `tool`, written by this version of lessons). A delta that does not fit is left out (the index then
   * describes the base's source, which the caller finds stale).
   */
  static open(base: ByteSource, delta?: ByteSource, tool?: string, sources?: Segment): SearchIndex | undefined {
    const baseSegment = Segment.open(base, tool);
    if (!baseSegment || baseSegment.header.kind !== 'base') return undefined;
    const deltaSegment = delta ? Segment.open(delta, tool) : undefined;
    const fits = deltaSegment?.header.kind === 'delta' && deltaSegment.header.base === baseSegment.header.id && deltaSegment.header.merged !== null;
    return new SearchIndex(baseSegment, fits ? deltaSegment : undefined, sources?.header.kind === 'sources' ? sources : undefined);
  }

  /** Whether other repositories' lessons are searched too. */
  get hasSources(): boolean {
    return this.sources !== undefined;
  }

  /**
   * Whether `doc` is a source's lesson whose id (without `<source>:`) a local lesson has: the
   * local one is the lesson, so this one is never selected. Asked of the few lessons a query
   * keeps (rank.ts), each by a search of the local ids.
   */
  isShadowed(doc: number): boolean {
    if (!this.sources || doc < this.localCount) return false;
    if (!this.mayBeLocal(doc - this.localCount)) return false;
    const id = this.sources.id(doc - this.localCount);
    return this.findLocalId(id.slice(id.indexOf(':') + 1)) >= 0;
  }

  /**
   * Whether a local lesson may have the id (without `<source>:`) of the sources' lesson `at`:
   * whether its bareIdHash is a local lesson's (read from the metadata tables, no id is read).
   */
  private mayBeLocal(at: number): boolean {
    const { local, sources, localLessons } = this.metaTables;
    if (!this.localHashes) {
      this.localHashes = new Uint8Array(0x10000 / 8);
      for (let doc = 0; doc < localLessons; doc++) {
        const hash = local.getUint16(doc * META_BYTES + META.idHash, true);
        this.localHashes[hash >>> 3]! |= 1 << (hash & 7);
      }
    }
    const hash = sources.getUint16(at * META_BYTES + META.idHash, true);
    return (this.localHashes[hash >>> 3]! & (1 << (hash & 7))) !== 0;
  }

  /** The base segment (what an incremental update compares with). */
  get baseSegment(): Segment {
    return this.base;
  }

  /** The delta segment, when one fits the base. */
  get deltaSegment(): Segment | undefined {
    return this.merge?.delta;
  }

  get hasDelta(): boolean {
    return this.merge !== undefined;
  }

  /** The number of base lesson `i` (not removed) in the merged order. */
  private baseDoc(i: number): number {
    const m = this.merge;
    if (!m) return i;
    return i - lowerBound(m.removed, i) + lowerBound(m.insertAt, i + 1);
  }

  private isRemoved(i: number): boolean {
    const m = this.merge;
    if (!m) return false;
    const at = lowerBound(m.removed, i);
    return m.removed[at] === i;
  }

  /** The segment and number within it of merged lesson `doc`. */
  private locate(doc: number): [Segment, number] {
    if (this.sources && doc >= this.localCount) return [this.sources, doc - this.localCount];
    const m = this.merge;
    if (!m) return [this.base, doc];
    const j = lowerBound(m.deltaDocs, doc);
    if (m.deltaDocs[j] === doc) return [m.delta, j];
    // baseDoc is non-decreasing over every base lesson: the first at or past `doc` that is not removed.
    let lo = 0;
    let hi = this.base.docCount;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.baseDoc(mid) < doc) lo = mid + 1;
      else hi = mid;
    }
    while (this.isRemoved(lo)) lo++;
    return [this.base, lo];
  }

  /** The merged number of the lesson with `id` (a source's as `<source>:<id>`), or -1. */
  private findId(id: string): number {
    // `<source>:<id>` is never a local lesson's id.
    const local = id.includes(':') ? -1 : this.findLocalId(id);
    if (local >= 0 || !this.sources) return local;
    const j = this.sources.findId(id);
    return j < 0 ? -1 : this.localCount + j;
  }

  private findLocalId(id: string): number {
    const m = this.merge;
    if (m) {
      const j = m.delta.findId(id);
      if (j >= 0) return m.deltaDocs[j]!;
    }
    const i = this.base.findId(id);
    return i < 0 || this.isRemoved(i) ? -1 : this.baseDoc(i);
  }

  /** The dictionary: every term of every lesson, sorted (built whole: preflight reads dictionary() instead). */
  get terms(): string[] {
    if (this.dictCache) return this.dictCache;
    const m = this.merge;
    const local = m ? union(this.base.terms, m.delta.terms, m.dead) : this.base.terms;
    return (this.dictCache = this.sources ? union(local, this.sources.terms) : local);
  }

  /** The dictionary read in place, each segment's as stored (Dictionary). */
  dictionary(): Dictionary {
    const m = this.merge;
    return new Dictionary([
      { terms: this.base.termList, ...(m ? { drop: m.dead } : {}) },
      ...(m ? [{ terms: m.delta.termList }] : []),
      ...(this.sources ? [{ terms: this.sources.termList }] : []),
    ]);
  }

  /**
   * A term's postings over every segment, as runs (PostingPart) the ranking reads in place.
   *
   * One ranking over the local lessons and the sources': a term's idf is the whole corpus's
   * (its lessons among all lessons), and each lesson's term frequency is normalised by the field
   * lengths of its own side (the local lessons, or the sources'), as a search engine scores each
   * shard with its own length statistics. A side's stored scores (idf x that normalisation, with
   * its own statistics) then need only one factor, the ratio of the two idfs, and the sources'
   * hundred thousand postings are read as they are stored, never decoded or rescored. The local
   * lessons alone score exactly as a full build of them would.
   */
  postingParts(termIndex: number): PostingPart[] {
    if (!this.sources && !this.merge) {
      const { docs, scores, fields } = this.base.postings(termIndex, false);
      return [{ docs, scores, fields, offset: 0, scale: 1 }];
    }
    return this.postingPartsOf(this.terms[termIndex]!);
  }

  /** postingParts() of `term` (none when no lesson has it). */
  postingPartsOf(term: string): PostingPart[] {
    return this.postingPlans(term).map((plan) => plan.read());
  }

  /**
   * postingPartsOf(term) before anything is read but a delta's merge: each side's count, offset
   * and idf factor, and how to read it (the ranking sizes its workspace by the counts, then reads
   * the postings into it).
   */
  postingPlans(term: string): PostingPlan[] {
    const m = this.merge;
    const b = this.base.findTerm(term);
    const d = m ? m.delta.findTerm(term) : -1;
    let merged: Postings | undefined;
    if (m && (b >= 0 || d >= 0)) merged = mergePostings(b >= 0 ? this.base.postings(b) : undefined, d >= 0 ? m.delta.postings(d) : undefined, this.scoring!);
    const localCount = merged ? merged.docs.length : !m && b >= 0 ? this.base.postingCount(b) : 0;
    const s = this.sources ? this.sources.findTerm(term) : -1;
    const theirCount = s >= 0 ? this.sources!.postingCount(s) : 0;
    const plans: PostingPlan[] = [];
    const idf = idfOf(this.docCount, localCount + theirCount);
    if (localCount > 0) {
      const scale = this.sources ? idf / idfOf(this.localCount, localCount) : 1;
      const read = merged ? () => ({ ...pick(merged!), offset: 0, scale }) : (into?: Uint8Array) => ({ ...pick(this.base.postings(b, false, into)), offset: 0, scale });
      plans.push({ count: localCount, offset: 0, scale, read });
    }
    if (theirCount > 0) {
      const scale = idf / idfOf(this.sources!.docCount, theirCount);
      plans.push({ count: theirCount, offset: this.localCount, scale, read: (into) => ({ ...pick(this.sources!.postings(s, false, into)), offset: this.localCount, scale }) });
    }
    return plans;
  }

  /** A term's postings over every segment in one list (postingParts, with the scale and offset applied). */
  postings(termIndex: number): Postings {
    const parts = this.postingParts(termIndex);
    if (parts.length === 1 && parts[0]!.offset === 0 && parts[0]!.scale === 1) return pick(parts[0]!);
    const count = parts.reduce((sum, part) => sum + part.docs.length, 0);
    const out: Postings = { docs: new Uint32Array(count), scores: new Float32Array(count), fields: new Uint8Array(count) };
    let k = 0;
    for (const part of parts) {
      for (let i = 0; i < part.docs.length; i++, k++) {
        out.docs[k] = part.offset + part.docs[i]!;
        out.scores[k] = part.scale * part.scores[i]!;
        out.fields[k] = part.fields[i]!;
      }
    }
    return out;
  }

  /**
   * The fixed-width metadata tables (META_BYTES per lesson; offsets as in buildSearchIndex): lesson
   * `doc` is row `doc` of `local` (base and delta merged) when below `localLessons`, else row
   * `doc - localLessons` of `sources`, read as the sources segment stores it (its project codes
   * are that segment's: projectMatch, meta).
   */
  get metaTables(): MetaTables {
    if (this.metaCache) return this.metaCache;
    const m = this.merge;
    const local = m ? mergeMeta(this.base.meta, m.delta.meta, m) : this.base.meta;
    const theirs = this.sources?.meta ?? new Uint8Array(0);
    return (this.metaCache = { local: new DataView(local.buffer, local.byteOffset, local.length), sources: new DataView(theirs.buffer, theirs.byteOffset, theirs.length), localLessons: this.localCount });
  }

  /**
   * Reads the metadata tables (metaTables) into `local` (localCount rows) and `sources` (the
   * sources' rows), and reads them from there afterwards: the ranking's workspace holds them,
   * and a table read once is not read again.
   */
  readMeta(local: Uint8Array, sources: Uint8Array): void {
    if (this.metaCache) {
      const { local: mine, sources: theirs } = this.metaCache;
      local.set(new Uint8Array(mine.buffer, mine.byteOffset, mine.byteLength));
      sources.set(new Uint8Array(theirs.buffer, theirs.byteOffset, theirs.byteLength));
    } else {
      const m = this.merge;
      if (m) local.set(mergeMeta(this.base.meta, m.delta.meta, m));
      else this.base.section('meta', local);
      this.sources?.section('meta', sources);
    }
    this.metaCache = { local: new DataView(local.buffer, local.byteOffset, local.length), sources: new DataView(sources.buffer, sources.byteOffset, sources.length), localLessons: this.localCount };
  }

  /** How many of the lessons are the sources'. */
  get sourceCount(): number {
    return this.sources?.docCount ?? 0;
  }

  /** The segment whose project names the local lessons' codes refer to (a delta's list starts with its base's). */
  private get localSegment(): Segment {
    return this.merge?.delta ?? this.base;
  }

  /**
   * `project`'s code among the local lessons' projects and among the sources' (-1 where no
   * lesson of that side has it), as the metadata rows store them (META.project; NO_PROJECT for
   * none). The sources' project names are read only when a project is in play.
   */
  projectCodes(project: string): { local: number; sources: number } {
    return { local: this.localSegment.projects.indexOf(project), sources: this.sources ? this.sources.projects.indexOf(project) : -1 };
  }

  /**
   * For each lesson: 1 when its project is `project`, 0 when it has none, -1 when it has another.
   * A local lesson's project code is the local segment's, a source lesson's the sources segment's,
   * so the sources' tens of thousands of project names are read only when a project is in play.
   */
  projectMatch(project: string): (doc: number) => -1 | 0 | 1 {
    if (this.docCount === 0) return () => 0;
    const { local: localView, sources: theirView, localLessons } = this.metaTables;
    const { local, sources: theirs } = this.projectCodes(project);
    return (doc) => {
      const mine = doc < localLessons;
      const own = mine ? localView.getUint16(doc * META_BYTES + META.project, true) : theirView.getUint16((doc - localLessons) * META_BYTES + META.project, true);
      if (own === NO_PROJECT) return 0;
      return own === (mine ? local : theirs) ? 1 : -1;
    };
  }

  /** A lesson's metadata, with its project's name. */
  meta(doc: number): DocMeta {
    const { local, sources, localLessons } = this.metaTables;
    const mine = doc < localLessons;
    const project = (mine ? local : sources).getUint16((mine ? doc : doc - localLessons) * META_BYTES + META.project, true);
    return { ...this.signals(doc), project: project === NO_PROJECT ? null : ((mine ? this.localSegment : this.sources!).projectName(project) ?? null) };
  }

  /** What ranking and output read of a lesson's metadata: all of it but the project's name (projectMatch compares codes). */
  signals(doc: number): LessonSignals {
    const { local, sources, localLessons } = this.metaTables;
    const mine = doc < localLessons;
    const view = mine ? local : sources;
    const at = (mine ? doc : doc - localLessons) * META_BYTES;
    return {
      level: LEVELS[view.getUint8(at + META.level)]!,
      status: STATUSES[view.getUint8(at + META.status)]!,
      severity: SEVERITIES[view.getUint8(at + META.severity)]!,
      source: SOURCES[view.getUint8(at + META.source)]!,
      confidence: view.getUint8(at + META.confidence),
      transferability: view.getUint8(at + META.transferability),
      occurrences: view.getUint16(at + META.occurrences, true),
      validatedDay: view.getInt32(at + META.validatedDay, true),
    };
  }

  record(doc: number): DocRecord {
    const [segment, local] = this.locate(doc);
    return segment.record(local);
  }

  /** The id of lesson `doc` alone (its row of the id table), without decoding its record. */
  id(doc: number): string {
    const [segment, local] = this.locate(doc);
    return segment.id(local);
  }

  /** Lessons linked to `doc` by promotion: `up` when distilled from it (its pattern or principle). */
  lineage(doc: number): { doc: number; up: boolean }[] {
    const [segment, local] = this.locate(doc);
    const result: { doc: number; up: boolean }[] = [];
    for (const [id, up, at] of segment.links(local)) {
      const linked = this.linked(segment, at, id);
      if (linked >= 0) result.push({ doc: linked, up });
    }
    return result;
  }

  /**
   * The merged number of a linked lesson that is number `at` of `segment` (-1: not in it), as
   * findId(id) would find it. A lesson is in one segment only (a changed base lesson is removed
   * from the base), so only a link out of its segment, or to a base lesson since changed or
   * removed, needs the search by id.
   */
  private linked(segment: Segment, at: number, id: string): number {
    if (at < 0) return this.findId(id);
    if (segment === this.sources) {
      // A local lesson of the same id comes first, as in findId (`<source>:<id>` is never a local lesson's id).
      const local = id.includes(':') ? -1 : this.findLocalId(id);
      return local >= 0 ? local : this.localCount + at;
    }
    if (segment !== this.base) return this.merge!.deltaDocs[at]!;
    return this.isRemoved(at) ? this.findId(id) : this.baseDoc(at);
  }

  /**
   * The lessons with path or command triggers, grouped by their (tools, paths, commands), in
   * lesson order within a group (their keyword phrases come from phrases()). Each segment has
   * its own groups, so two groups may hold the same triggers.
   */
  triggerGroups(): TriggerGroup[] {
    const groups: TriggerGroup[] = [];
    const add = (segment: Segment, docOf: (local: number) => number): void => {
      for (const [tools, paths, commands, locals] of segment.triggers()) {
        const docs: number[] = [];
        for (let k = 0; k < locals.length; k++) {
          const doc = docOf(locals[k]!);
          if (doc >= 0) docs.push(doc);
        }
        if (docs.length > 0) groups.push({ tools, paths, commands, docs });
      }
    };
    add(this.base, (i) => (this.isRemoved(i) ? -1 : this.baseDoc(i)));
    const m = this.merge;
    if (m) add(m.delta, (j) => m.deltaDocs[j]!);
    if (this.sources) add(this.sources, (j) => this.localCount + j);
    return groups;
  }

  /**
   * The keyword phrases `sequence` (the query's terms in order) contains, each with its lesson:
   * the phrases that begin with one of its terms, each phrase checked once however many lessons
   * have it. A phrase the query does not contain can never match (matchTriggers), so it is left out.
   */
  phrases(sequence: readonly string[]): PhraseRow[] {
    const rows: PhraseRow[] = [];
    const m = this.merge;
    const segments: [Segment, (local: number) => number][] = [[this.base, (i) => (this.isRemoved(i) ? -1 : this.baseDoc(i))]];
    if (m) segments.push([m.delta, (j) => m.deltaDocs[j]!]);
    if (this.sources) segments.push([this.sources, (j) => this.localCount + j]);
    const contained = new Map<string, string[] | null>();
    for (const term of new Set(sequence)) {
      for (const [segment, docOf] of segments) {
        for (const line of segment.phraseLines(term)) {
          const first = line.indexOf('\t');
          const second = line.indexOf('\t', first + 1);
          const phrase = line.slice(0, first);
          let terms = contained.get(phrase);
          if (terms === undefined) {
            const words = phrase.split(' ');
            contained.set(phrase, (terms = containsSequence(sequence, words) ? words : null));
          }
          if (terms === null) continue;
          const doc = docOf(Number(line.slice(first + 1, second < 0 ? undefined : second)));
          const tools = second < 0 ? '' : line.slice(second + 1);
          if (doc >= 0) rows.push({ doc, terms, tools: tools === '' ? [] : tools.split(',') });
        }
      }
    }
    return rows;
  }

  /** Corpus terms a query term is related to by the thesaurus (none when it is not in it). */
  related(term: string): readonly string[] {
    const m = this.merge;
    if (!m && !this.sources) return this.base.related(term);
    const all = new Set([...this.base.related(term), ...(m?.delta.related(term) ?? []), ...(this.sources?.related(term) ?? [])]);
    const gone = (other: string): boolean => m !== undefined && m.dead.has(other) && (this.sources?.findTerm(other) ?? -1) < 0;
    return [...all].filter((other) => !gone(other)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }
}

function pick({ docs, scores, fields }: Postings): Postings {
  return { docs, scores, fields };
}

/** Two sorted term lists as one, without `left`'s terms in `drop`. */
function union(left: readonly string[], right: readonly string[], drop?: ReadonlySet<string>): string[] {
  const merged: string[] = [];
  let r = 0;
  for (const term of left) {
    while (r < right.length && right[r]! < term) merged.push(right[r++]!);
    if (r < right.length && right[r] === term) {
      merged.push(right[r++]!);
      continue;
    }
    if (!drop?.has(term)) merged.push(term);
  }
  while (r < right.length) merged.push(right[r++]!);
  return merged;
}
