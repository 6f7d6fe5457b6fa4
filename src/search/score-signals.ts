import { FIELDS, META } from './fields.js';

/**
 * The ranking's score of a lesson, as one table: the score loop's inputs (its parameters, in
 * order) and the signals it multiplies. Both implementations are made from it: score-kernel.ts
 * writes the loop as WebAssembly text (spliced into kernels.wat) and as JavaScript
 * (kernels-score-js.ts, the mirror where WebAssembly cannot be compiled), and kernels.ts
 * passes a query's values to either in this order. So both give the same scores to the last
 * bit, and the loop stays straight-line code: nothing here is read per lesson.
 *
 * To add a signal, edit this file (score-values.ts then gives its value):
 * - its values, in SCORE_INPUTS: `from: 'input'` becomes a field of ScoreInput; `from:
 *   'table'` a lookup table of `size` f64s at TABLE[name] in Workspace.tables;
 * - the signal, in MATCH (what the task matched) or LESSON (what the lesson is), of a kind
 *   score-kernel.ts knows: `code` (a table looked up by a byte or u16 of the metadata row),
 *   `count` (1 + weight x a per-lesson u8 array), `sum` (a per-lesson f64 array), or one of the
 *   one-off kinds below. A new kind is a pair of emitters (WebAssembly and JavaScript) in
 *   score-kernel.ts.
 * Then run `node scripts/build-kernels.mjs`: it regenerates kernels-wasm.ts and
 * kernels-score-js.ts (with `--check`, run by a test, it fails while either is stale). What the
 * table does not describe: a per-lesson array (`count`, `sum`) is laid out by Workspace and
 * filled by fold() (kernels.ts), and a value the metadata row does not hold yet needs its bytes
 * in fields.ts (META) and the index build.
 */

/** The score loop's parameters, in order: a workspace array's offset, the candidates' count, a ScoreInput field, a table's offset, or a side of the project in play. */
export const SCORE_INPUTS = [
  { name: 'docs', type: 'i32', from: 'array' },
  { name: 'count', type: 'i32', from: 'count' },
  { name: 'text', type: 'i32', from: 'array' },
  { name: 'evidence', type: 'i32', from: 'array' },
  { name: 'coverage', type: 'i32', from: 'array' },
  { name: 'tags', type: 'i32', from: 'array' },
  { name: 'keywords', type: 'i32', from: 'array' },
  { name: 'triggered', type: 'i32', from: 'array' },
  { name: 'shadowed', type: 'i32', from: 'array' },
  { name: 'information', type: 'f64', from: 'input' },
  { name: 'lessonFloor', type: 'f64', from: 'input' },
  { name: 'coordinationFloor', type: 'f64', from: 'input' },
  { name: 'tagWeight', type: 'f64', from: 'input' },
  { name: 'keywordWeight', type: 'f64', from: 'input' },
  { name: 'metaLocal', type: 'i32', from: 'array', array: 'localRows' },
  { name: 'metaSources', type: 'i32', from: 'array', array: 'sourceRows' },
  { name: 'localLessons', type: 'i32', from: 'input' },
  { name: 'level', type: 'i32', from: 'table', size: 8 },
  { name: 'status', type: 'i32', from: 'table', size: 8 },
  { name: 'severity', type: 'i32', from: 'table', size: 8 },
  { name: 'source', type: 'i32', from: 'table', size: 8 },
  { name: 'confidence', type: 'i32', from: 'table', size: 256 },
  { name: 'transferability', type: 'i32', from: 'table', size: 256 },
  /** By occurrences, 0 to 8 (8 stands for 8 and more). */
  { name: 'occurrences', type: 'i32', from: 'table', size: 16 },
  { name: 'today', type: 'i32', from: 'input' },
  { name: 'staleDays', type: 'f64', from: 'input' },
  { name: 'recency', type: 'f64', from: 'input' },
  { name: 'projectInPlay', type: 'i32', from: 'project', side: 'inPlay' },
  { name: 'localProject', type: 'i32', from: 'project', side: 'local' },
  { name: 'sourcesProject', type: 'i32', from: 'project', side: 'sources' },
  { name: 'sameProject', type: 'f64', from: 'input' },
  { name: 'scored', type: 'i32', from: 'array' },
  { name: 'values', type: 'i32', from: 'array' },
] as const;

export type ScoreInputSpec = (typeof SCORE_INPUTS)[number];
export type ScoreInputName = ScoreInputSpec['name'];

/**
 * What the task matched, multiplied in this order: the text score, coordination (the root of
 * the share of the task's information the lesson covers, from a floor), and one plus a weight
 * per tag and per keyword field matched.
 */
export const MATCH = [
  { kind: 'sum', of: 'text' },
  { kind: 'coordination', of: 'coverage', total: 'information', floor: 'coordinationFloor' },
  { kind: 'count', of: 'tags', weight: 'tagWeight' },
  { kind: 'count', of: 'keywords', weight: 'keywordWeight' },
] as const;

/**
 * What the lesson is, whatever the task, multiplied in this order and then into the match: a
 * factor per metadata code (`at`: its offset in the metadata row, u8 unless `u16`, at most
 * `cap`), recency of validation, and the project (a lesson of another project is left out; one
 * of the project in play is multiplied by its weight last).
 */
export const LESSON = [
  { kind: 'code', table: 'level', at: META.level },
  { kind: 'code', table: 'status', at: META.status },
  { kind: 'code', table: 'severity', at: META.severity },
  { kind: 'code', table: 'source', at: META.source },
  { kind: 'code', table: 'confidence', at: META.confidence },
  { kind: 'code', table: 'transferability', at: META.transferability },
  { kind: 'code', table: 'occurrences', at: META.occurrences, u16: true, cap: 8 },
  { kind: 'recency', at: META.validatedDay, today: 'today', staleDays: 'staleDays', weight: 'recency' },
  { kind: 'project', at: META.project, inPlay: 'projectInPlay', local: 'localProject', sources: 'sourcesProject', weight: 'sameProject' },
] as const;

export type Signal = (typeof MATCH)[number] | (typeof LESSON)[number];

/** The project in play, as each side's project code (-1: no lesson of that side has it). */
export interface ProjectInPlay {
  local: number;
  sources: number;
}

/** What Workspace.score() needs beyond the arrays (score-values.ts fills the lookup tables first). */
export type ScoreInput = { [K in Extract<ScoreInputSpec, { from: 'input' }>['name']]: number } & { project: ProjectInPlay | undefined };

type TableName = 'proofOf' | 'coverageOf' | Extract<ScoreInputSpec, { from: 'table' }>['name'];

/** Each lookup table and how many f64s it holds: fold()'s by field bits, then the score's by metadata code, in SCORE_INPUTS order. */
const TABLE_SIZES: [TableName, number][] = [
  ['proofOf', 1 << FIELDS.length],
  ['coverageOf', 1 << FIELDS.length],
  ...SCORE_INPUTS.flatMap((each): [TableName, number][] => (each.from === 'table' ? [[each.name, each.size]] : [])),
];

function layTables(): { offsets: Record<TableName, number>; length: number } {
  const offsets = {} as Record<TableName, number>;
  let length = 0;
  for (const [name, size] of TABLE_SIZES) {
    offsets[name] = length;
    length += size;
  }
  return { offsets, length };
}

const TABLES = layTables();
/** Where each lookup table starts in Workspace.tables (in f64s). */
export const TABLE: Readonly<Record<TableName, number>> = TABLES.offsets;
export const TABLES_LENGTH = TABLES.length;
