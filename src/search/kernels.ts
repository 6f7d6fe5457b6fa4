import { jsScore, type ScoreKernel } from './kernels-score-js.js';
import { KERNELS_WASM } from './kernels-wasm.js';
import { SCORE_INPUTS, TABLE, TABLES_LENGTH, type ScoreInput, type ScoreInputSpec } from './score-signals.js';

/**
 * The ranking's per-lesson arrays and the loops over them (rank.ts): the sums a query's
 * postings add to, the candidates they reach, and the score of each. Over a hundred thousand
 * lessons a query touches tens of thousands, in one short process: the loops run as
 * WebAssembly (kernels.wat), compiled at load, where the same JavaScript would run mostly
 * unoptimised and allocate a heap number for every floating-point value it reads. Where
 * WebAssembly may not be compiled (node --jitless, --disallow-code-generation-from-strings)
 * the same loops run as the JavaScript below, which mirrors kernels.wat operation for operation
 * over the same memory layout, so both give the same scores to the last bit (a test compares
 * them). The score loop is written in both from one table, score-signals.ts.
 */

/** One run of a term's postings: lesson numbers (from `offset`), stored scores, field bits. */
export interface PostingRun {
  docs: Uint32Array;
  scores: Float32Array;
  fields: Uint8Array;
  offset: number;
}

/** The loops, over byte offsets into one memory (kernels.wat has what each does). */
export interface KernelOps {
  fold(
    pDocs: number,
    pScores: number,
    pFields: number,
    len: number,
    offset: number,
    weight: number,
    proofOf: number,
    coverageOf: number,
    tagBits: number,
    keywordBits: number,
    text: number,
    evidence: number,
    coverage: number,
    tags: number,
    keywords: number,
    isCandidate: number,
    docs: number,
    count: number,
  ): number;
  gather(docs: number, count: number, source: number, values: number): void;
  kthLargest(values: number, count: number, k: number, heap: number): number;
  atLeast(ids: number, values: number, count: number, threshold: number, positive: number, marked: number, out: number, outValues: number): number;
  fieldsOf(pDocs: number, pFields: number, len: number, offset: number, kept: number, count: number, out: number): void;
  /** The score loop: its parameters are SCORE_INPUTS, in order. */
  score: ScoreKernel;
}

/** What this file uses of the WebAssembly JavaScript API (the TypeScript libraries this project builds with do not declare it). */
declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => WasmModule;
  Memory: new (descriptor: { initial: number }) => { buffer: ArrayBuffer; grow: (pages: number) => number };
  Instance: new (module: WasmModule, imports: Record<string, Record<string, unknown>>) => { exports: Record<string, unknown> };
};
type WasmModule = { readonly wasmModule: unique symbol };

const PAGE = 65536;
/** The most of a score array kthLargest keeps (its heap). */
export const HEAP_MAX = 256;
/** The bytes of a lesson's metadata row (search-fields.ts META_BYTES; kernels.wat reads its fields by offset). */
const ROW = 16;

let compiled: WasmModule | null | undefined;

/** The compiled kernels, or null where WebAssembly cannot be compiled. Compiled once per process. */
function wasmModule(): WasmModule | null {
  if (compiled !== undefined) return compiled;
  try {
    compiled = new WebAssembly.Module(Buffer.from(KERNELS_WASM, 'base64'));
  } catch {
    compiled = null;
  }
  return compiled;
}

/** What scoreRaw (kernels.wat) is given besides the postings: per field its bit, weight and average length, and BM25's constants. */
export interface RawScoring {
  bits: readonly number[];
  weights: Float64Array;
  avg: Float64Array;
  k: number;
  oneMinusB: number;
  b: number;
  d: number;
  kPlus1: number;
}

/** The module's scoreRaw over a memory of its own, made once per process (null where WebAssembly cannot be compiled). */
let scorer: { memory: { buffer: ArrayBuffer; grow: (pages: number) => number }; scoreRaw: (...args: number[]) => void } | null | undefined;

/**
 * Scores `fields.length` postings from their raw varints (search-merge.ts) into `out`, as
 * WebAssembly: what the JavaScript scoreNext() computes, to the last bit. False where
 * WebAssembly cannot be compiled (the caller scores them itself).
 */
export function scoreRawPostings(fields: Uint8Array, raw: Uint8Array, scoring: RawScoring, out: Float32Array): boolean {
  if (scorer === undefined) {
    const module = wasmModule();
    if (module) {
      const memory = new WebAssembly.Memory({ initial: 1 });
      const { exports } = new WebAssembly.Instance(module, { env: { memory } });
      scorer = { memory, scoreRaw: exports.scoreRaw as (...args: number[]) => void };
    } else scorer = null;
  }
  if (scorer === null) return false;
  const width = scoring.bits.length;
  // Per field: bits (i32), weights and averages (f64); then the field bits, the varints and the scores.
  const pWeights = 8 * Math.ceil((4 * width) / 8);
  const pAvg = pWeights + 8 * width;
  const pFields = pAvg + 8 * width;
  const pRaw = pFields + fields.length;
  const pOut = 4 * Math.ceil((pRaw + raw.length) / 4);
  const end = pOut + 4 * fields.length;
  const have = scorer.memory.buffer.byteLength;
  if (end > have) scorer.memory.grow(Math.ceil((end - have) / PAGE));
  const buffer = scorer.memory.buffer;
  new Int32Array(buffer, 0, width).set(scoring.bits);
  new Float64Array(buffer, pWeights, width).set(scoring.weights);
  new Float64Array(buffer, pAvg, width).set(scoring.avg);
  new Uint8Array(buffer, pFields, fields.length).set(fields);
  new Uint8Array(buffer, pRaw, raw.length).set(raw);
  scorer.scoreRaw(pFields, pRaw, fields.length, 0, pWeights, pAvg, width, scoring.k, scoring.oneMinusB, scoring.b, scoring.d, scoring.kPlus1, pOut);
  out.set(new Float32Array(buffer, pOut, fields.length));
  return true;
}

/**
 * Which loops run: `auto` picks WebAssembly when the query reads at least WASM_MIN_POSTINGS
 * postings, else the JavaScript mirror; both give the same result. Compiling and instantiating
 * the module costs under a millisecond and under a megabyte of memory in a fresh process; the
 * JavaScript, run cold, costs about a microsecond a posting and a heap number for each value it
 * reads (garbage to collect), so a query of a few thousand postings is already faster as
 * WebAssembly (10,000 lessons: the warm preflight about 7 ms faster, 1,000: no difference).
 * `js` and `wasm` force one (tests compare them); `wasm` falls back to the mirror where
 * WebAssembly cannot be compiled.
 */
export type KernelKind = 'auto' | 'wasm' | 'js';

export const WASM_MIN_POSTINGS = 2_000;

/** Whether loops over `postings` postings run as WebAssembly under `kind` (before asking whether it compiles here). */
export function wantsWasm(kind: KernelKind, postings: number): boolean {
  return kind === 'wasm' || (kind === 'auto' && postings >= WASM_MIN_POSTINGS);
}

/** What a workspace is sized for. */
export interface WorkspaceSize {
  docCount: number;
  /** The lessons with a metadata row in each table: the local ones come first, then the sources'. */
  localLessons: number;
  sourceLessons: number;
  /** The postings of every run it will be given, and the bytes they take as stored (postingBytes each): runs stay in its memory until it is dropped. */
  runPostings: number;
  runBytes: number;
}

/** A posting run in a workspace (Workspace.addRun): where it starts, laid out as stored (lesson numbers, scores, field bits). */
export interface Run {
  at: number;
  length: number;
  offset: number;
}

/** A run to read into a workspace: its length, where its lesson numbers start, and how to read it (into the bytes given, or elsewhere). */
export interface RunSource {
  count: number;
  offset: number;
  read: (into?: Uint8Array) => PostingRun;
}

/**
 * One query's memory: every per-lesson array at a fixed offset, the metadata rows, the posting
 * runs. Fresh memory is zeroed, so the sums start at 0.
 */
export class Workspace {
  readonly kind: 'wasm' | 'js';
  readonly docCount: number;
  readonly text: Float64Array;
  readonly evidence: Float64Array;
  readonly coverage: Float64Array;
  readonly tags: Uint8Array;
  readonly keywords: Uint8Array;
  readonly isCandidate: Uint8Array;
  readonly triggered: Uint8Array;
  readonly shadowed: Uint8Array;
  /** The candidate lessons, in the order they were reached (the first `count`). */
  readonly docs: Int32Array;
  count = 0;
  /** f64 tables the loops look values up in (proofOf and coverageOf by field bits, the metadata factors by code). */
  readonly tables: Float64Array;
  /** The metadata rows (META_BYTES each) of the local lessons and of the sources' (fill them before score()). */
  readonly localRows: Uint8Array;
  readonly sourceRows: Uint8Array;
  private readonly ops: KernelOps;
  private readonly buffer: ArrayBuffer;
  private readonly at: Record<string, number> = {};
  private readonly runBytes: number;
  private runsUsed = 0;

  constructor(size: WorkspaceSize, kind: KernelKind = 'auto') {
    const n = size.docCount;
    this.docCount = n;
    this.runBytes = size.runBytes;
    let end = 0;
    const take = (name: string, bytes: number): void => {
      end = Math.ceil(end / 16) * 16;
      this.at[name] = end;
      end += bytes;
    };
    for (const name of ['text', 'evidence', 'coverage', 'values']) take(name, 8 * n);
    take('outValues', 8 * n);
    take('heap', 8 * HEAP_MAX);
    take('tables', 8 * TABLES_LENGTH);
    for (const name of ['docs', 'scored', 'out']) take(name, 4 * n);
    for (const name of ['tags', 'keywords', 'isCandidate', 'triggered', 'shadowed', 'fields']) take(name, n);
    take('localRows', ROW * size.localLessons);
    take('sourceRows', ROW * size.sourceLessons);
    take('runs', size.runBytes);
    const pages = Math.max(1, Math.ceil(end / PAGE));
    const module = wantsWasm(kind, size.runPostings) ? wasmModule() : null;
    if (module) {
      const memory = new WebAssembly.Memory({ initial: pages });
      const instance = new WebAssembly.Instance(module, { env: { memory } });
      this.ops = instance.exports as unknown as KernelOps;
      this.buffer = memory.buffer;
      this.kind = 'wasm';
    } else {
      this.buffer = new ArrayBuffer(pages * PAGE);
      this.ops = jsKernels(this.buffer);
      this.kind = 'js';
    }
    const f64 = (name: string, length: number): Float64Array => new Float64Array(this.buffer, this.at[name], length);
    const u8 = (name: string, length = n): Uint8Array => new Uint8Array(this.buffer, this.at[name], length);
    this.text = f64('text', n);
    this.evidence = f64('evidence', n);
    this.coverage = f64('coverage', n);
    this.tables = f64('tables', TABLES_LENGTH);
    this.tags = u8('tags');
    this.keywords = u8('keywords');
    this.isCandidate = u8('isCandidate');
    this.triggered = u8('triggered');
    this.shadowed = u8('shadowed');
    this.docs = new Int32Array(this.buffer, this.at.docs, n);
    this.localRows = u8('localRows', ROW * size.localLessons);
    this.sourceRows = u8('sourceRows', ROW * size.sourceLessons);
  }

  /** Makes `doc` a candidate (once). */
  add(doc: number): void {
    if (this.isCandidate[doc] === 0) {
      this.isCandidate[doc] = 1;
      this.docs[this.count++] = doc;
    }
  }

  /**
   * Reads a posting run into the workspace, laid out as stored (it stays for fold() and
   * fieldsOf()): read in place, so its bytes are touched once; a run computed elsewhere (a
   * delta's merged postings) is copied.
   */
  addRun(source: RunSource): Run {
    const length = source.count;
    const bytes = length * 8 + ((length + 3) & ~3);
    if (this.runsUsed + bytes > this.runBytes) throw new Error(`the workspace holds ${this.runBytes} bytes of postings, not ${this.runsUsed + bytes}`);
    const at = this.at.runs! + this.runsUsed;
    const into = new Uint8Array(this.buffer, at, bytes);
    const run = source.read(into);
    if (run.docs.length !== length) throw new Error(`a posting run of ${run.docs.length} where ${length} were counted`);
    if (run.docs.buffer !== this.buffer || run.docs.byteOffset !== at) {
      new Uint32Array(this.buffer, at, length).set(run.docs);
      new Float32Array(this.buffer, at + 4 * length, length).set(run.scores);
      new Uint8Array(this.buffer, at + 8 * length, length).set(run.fields);
    }
    this.runsUsed += bytes;
    return { at, length, offset: source.offset };
  }

  /**
   * Adds a posting run to the sums: text += weight x stored score; evidence and coverage by the
   * posting's field bits (tables proofOf and coverageOf, TABLE); tags and keywords counted when
   * its fields meet `tagBits` and `keywordBits`.
   */
  fold(run: Run, weight: number, tagBits: number, keywordBits: number): void {
    const { at } = this;
    this.count = this.ops.fold(
      run.at,
      run.at + 4 * run.length,
      run.at + 8 * run.length,
      run.length,
      run.offset,
      weight,
      at.tables! + 8 * TABLE.proofOf,
      at.tables! + 8 * TABLE.coverageOf,
      tagBits,
      keywordBits,
      at.text!,
      at.evidence!,
      at.coverage!,
      at.tags!,
      at.keywords!,
      at.isCandidate!,
      at.docs!,
      this.count,
    );
  }

  /** The field bits of each of `kept` (lesson numbers, ascending) in `run`, 0 where it has none. */
  fieldsOf(run: Run, kept: readonly number[]): Uint8Array {
    const { at } = this;
    if (kept.length > this.docCount) throw new Error(`${kept.length} lessons is more than the workspace's ${this.docCount}`);
    new Int32Array(this.buffer, at.out, kept.length).set(kept);
    this.ops.fieldsOf(run.at, run.at + 8 * run.length, run.length, run.offset, at.out!, kept.length, at.fields!);
    return new Uint8Array(this.buffer, at.fields, kept.length).slice();
  }

  /**
   * The candidates whose text score is among the `k` largest (ties included) and above 0, in
   * candidate order.
   */
  bestByText(k: number): number[] {
    const { at } = this;
    if (k > HEAP_MAX) throw new Error(`k ${k} is larger than the heap's ${HEAP_MAX}`);
    this.ops.gather(at.docs!, this.count, at.text!, at.values!);
    const threshold = this.ops.kthLargest(at.values!, this.count, k, at.heap!);
    const n = this.ops.atLeast(at.docs!, at.values!, this.count, threshold, 1, 0, at.out!, 0);
    return Array.from(new Int32Array(this.buffer, at.out, n));
  }

  /**
   * Scores every candidate that may be shown (the score loop, score-kernel.ts), and returns
   * those among the `k` best (ties included) or triggered, in candidate order, with their scores.
   */
  score(k: number, input: ScoreInput): { docs: number[]; scores: number[] } {
    const { at } = this;
    if (k > HEAP_MAX) throw new Error(`k ${k} is larger than the heap's ${HEAP_MAX}`);
    const scored = this.ops.score(...(SCORE_INPUTS.map((spec) => this.argument(spec, input)) as Parameters<ScoreKernel>));
    const threshold = this.ops.kthLargest(at.values!, scored, k, at.heap!);
    const n = this.ops.atLeast(at.scored!, at.values!, scored, threshold, 0, at.triggered!, at.out!, at.outValues!);
    return { docs: Array.from(new Int32Array(this.buffer, at.out, n)), scores: Array.from(new Float64Array(this.buffer, at.outValues, n)) };
  }

  /** The value of one of the score loop's parameters (score-signals.ts says where each comes from). */
  private argument(spec: ScoreInputSpec, input: ScoreInput): number {
    switch (spec.from) {
      case 'array':
        return this.at['array' in spec ? spec.array : spec.name]!;
      case 'count':
        return this.count;
      case 'input':
        return input[spec.name];
      case 'table':
        return this.at.tables! + 8 * TABLE[spec.name];
      case 'project':
        return spec.side === 'inPlay' ? (input.project === undefined ? 0 : 1) : (input.project?.[spec.side] ?? -1);
    }
  }
}


/** kernels.wat in JavaScript, over the same memory: used where WebAssembly cannot be compiled. */
export function jsKernels(buffer: ArrayBuffer): KernelOps {
  const u8 = new Uint8Array(buffer);
  const u16 = new Uint16Array(buffer);
  const i32 = new Int32Array(buffer);
  const u32 = new Uint32Array(buffer);
  const f32 = new Float32Array(buffer);
  const f64 = new Float64Array(buffer);
  const siftDown = (heap: number, length: number, from: number): void => {
    const h = heap >> 3;
    let at = from;
    for (;;) {
      const left = 2 * at + 1;
      if (left >= length) return;
      const child = left + 1 < length && f64[h + left + 1]! < f64[h + left]! ? left + 1 : left;
      if (!(f64[h + child]! < f64[h + at]!)) return;
      const swap = f64[h + at]!;
      f64[h + at] = f64[h + child]!;
      f64[h + child] = swap;
      at = child;
    }
  };
  return {
    fold(pDocs, pScores, pFields, len, offset, weight, proofOf, coverageOf, tagBits, keywordBits, text, evidence, coverage, tags, keywords, isCandidate, docs, count) {
      let n = count;
      for (let i = 0; i < len; i++) {
        const doc = offset + u32[(pDocs >> 2) + i]!;
        const bits = u8[pFields + i]!;
        if (u8[isCandidate + doc] === 0) {
          u8[isCandidate + doc] = 1;
          i32[(docs >> 2) + n++] = doc;
        }
        f64[(text >> 3) + doc]! += weight * f32[(pScores >> 2) + i]!;
        f64[(evidence >> 3) + doc]! += f64[(proofOf >> 3) + bits]!;
        f64[(coverage >> 3) + doc]! += f64[(coverageOf >> 3) + bits]!;
        if ((bits & tagBits) !== 0) u8[tags + doc]!++;
        if ((bits & keywordBits) !== 0) u8[keywords + doc]!++;
      }
      return n;
    },
    gather(docs, count, source, values) {
      for (let i = 0; i < count; i++) f64[(values >> 3) + i] = f64[(source >> 3) + i32[(docs >> 2) + i]!]!;
    },
    kthLargest(values, count, k, heap) {
      if (count < k) return Number.NEGATIVE_INFINITY;
      f64.copyWithin(heap >> 3, values >> 3, (values >> 3) + k);
      for (let i = (k >>> 1) - 1; i >= 0; i--) siftDown(heap, k, i);
      for (let i = k; i < count; i++) {
        const value = f64[(values >> 3) + i]!;
        if (value > f64[heap >> 3]!) {
          f64[heap >> 3] = value;
          siftDown(heap, k, 0);
        }
      }
      return f64[heap >> 3]!;
    },
    atLeast(ids, values, count, threshold, positive, marked, out, outValues) {
      let n = 0;
      for (let i = 0; i < count; i++) {
        const id = i32[(ids >> 2) + i]!;
        const value = f64[(values >> 3) + i]!;
        let keep = value >= threshold;
        if (positive !== 0) keep &&= value > 0;
        if (marked !== 0) keep ||= u8[marked + id] !== 0;
        if (!keep) continue;
        i32[(out >> 2) + n] = id;
        if (outValues !== 0) f64[(outValues >> 3) + n] = value;
        n++;
      }
      return n;
    },
    fieldsOf(pDocs, pFields, len, offset, kept, count, out) {
      let i = 0;
      for (let k = 0; k < count; k++) {
        const target = i32[(kept >> 2) + k]! - offset;
        let bits = 0;
        if (target >= 0) {
          while (i < len && u32[(pDocs >> 2) + i]! < target) i++;
          if (i < len && u32[(pDocs >> 2) + i] === target) bits = u8[pFields + i]!;
        }
        u8[out + k] = bits;
      }
    },
    score: jsScore(u8, u16, i32, f64),
  };
}
