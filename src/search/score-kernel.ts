import { META_BYTES, NO_DATE, NO_PROJECT } from './fields.js';
import { LESSON, MATCH, SCORE_INPUTS, type ScoreInputName, type Signal } from './score-signals.js';

/**
 * Writes the score loop from score-signals.ts twice, as WebAssembly text (the `score` export
 * of kernels.wat) and as JavaScript (kernels-score-js.ts), for scripts/build-kernels.mjs: each
 * kind of signal has its two forms side by side below, operation for operation, so both give
 * the same scores to the last bit. Nothing here runs when a query is scored.
 *
 * The loop, per candidate lesson: left out when below the evidence floor and not triggered, or
 * shadowed; its metadata row found (local lessons first, then the sources'); each signal's
 * filter (which may leave it out) and preparation; the lesson's factor (LESSON's factors
 * multiplied in order, then each signal's adjustment); the score (MATCH's factors multiplied in
 * order, times the lesson's factor), stored with the lesson to `values` and `scored`.
 */

/** One piece of the loop in both languages. */
interface Code {
  wat: string;
  js: string;
}

type LocalType = 'i32' | 'f64';

/** How a kind of signal is written: its locals (one signal of the kind per table, then), and its parts of the loop. */
interface Kind<S> {
  locals?: Record<string, LocalType>;
  /** Statements that may leave the lesson out (`br $skip`, `continue`). */
  filter?: (signal: S) => Code;
  /** Statements that compute what its factor reads. */
  prepare?: (signal: S) => Code;
  /** Its factor in the product (an f64 expression). */
  factor?: (signal: S) => Code;
  /** Statements that adjust the lesson's factor once the product is made. */
  adjust?: (signal: S) => Code;
}

const ROW_SHIFT = Math.log2(META_BYTES);
if (!Number.isInteger(ROW_SHIFT)) throw new Error(`the metadata row's ${META_BYTES} bytes are not a power of two`);

/** The name of a parameter of the loop, which must be one of SCORE_INPUTS (the generator fails otherwise). */
function input(name: ScoreInputName, type: LocalType): string {
  const spec = SCORE_INPUTS.find((each) => each.name === name);
  if (!spec || spec.type !== type) throw new Error(`the score's signals read ${name} as ${type}, which SCORE_INPUTS does not give`);
  return name;
}

/** The inputs the loop itself reads (a signal's own are checked where it is written). */
const FRAME = [['docs', 'i32'], ['count', 'i32'], ['evidence', 'i32'], ['triggered', 'i32'], ['shadowed', 'i32'], ['lessonFloor', 'f64'], ['localLessons', 'i32'], ['metaLocal', 'i32'], ['metaSources', 'i32'], ['scored', 'i32'], ['values', 'i32']] as const;
for (const [name, type] of FRAME) input(name, type);

const NO_PROJECT_HEX = `0x${NO_PROJECT.toString(16)}`;
const get = (name: string): string => `(local.get $${name})`;

/** The kinds of signal, in the order their locals are declared. */
const KINDS: { [K in Signal['kind']]: Kind<Extract<Signal, { kind: K }>> } = {
  project: {
    locals: { code: 'i32', same: 'i32' },
    filter: (s) => ({
      wat: `(local.set $same (i32.const 0))
(if ${get(input(s.inPlay, 'i32'))}
  (then
    (local.set $code (i32.load16_u offset=${s.at} (local.get $row)))
    (if (i32.ne (local.get $code) (i32.const ${NO_PROJECT_HEX}))
      (then
        (br_if $skip (i32.ne (local.get $code) (select ${get(input(s.local, 'i32'))} ${get(input(s.sources, 'i32'))} (local.get $mine))))
        (local.set $same (i32.const 1))))))`,
      js: `let same = false;
if (${input(s.inPlay, 'i32')} !== 0) {
  const code = u16[(row + ${s.at}) >> 1]!;
  if (code !== ${NO_PROJECT_HEX}) {
    if (code !== (mine ? ${s.local} : ${s.sources})) continue;
    same = true;
  }
}`,
    }),
    adjust: (s) => ({
      wat: `(if (local.get $same) (then (local.set $factor (f64.mul (local.get $factor) ${get(input(s.weight, 'f64'))}))))`,
      js: `if (same) factor *= ${input(s.weight, 'f64')};`,
    }),
  },
  recency: {
    locals: { day: 'i32', age: 'f64' },
    prepare: (s) => {
      const [today, stale] = [input(s.today, 'i32'), input(s.staleDays, 'f64')];
      return {
        wat: `(local.set $day (i32.load offset=${s.at} (local.get $row)))
(local.set $age (select
  ${get(stale)}
  (f64.convert_i32_s (select (i32.sub ${get(today)} (local.get $day)) (i32.const 0) (i32.gt_s (i32.sub ${get(today)} (local.get $day)) (i32.const 0))))
  (i32.eq (local.get $day) (i32.const ${NO_DATE}))))`,
        js: `const day = i32[(row + ${s.at}) >> 2]!;
const age = day === ${NO_DATE} ? ${stale} : Math.max(0, ${today} - day);`,
      };
    },
    factor: (s) => ({
      wat: `(f64.sub (f64.const 1) (f64.mul ${get(input(s.weight, 'f64'))} (f64.min (f64.const 1) (f64.div (local.get $age) ${get(input(s.staleDays, 'f64'))}))))`,
      js: `(1 - ${input(s.weight, 'f64')} * Math.min(1, age / ${input(s.staleDays, 'f64')}))`,
    }),
  },
  coordination: {
    locals: { share: 'f64' },
    prepare: (s) => {
      const total = input(s.total, 'f64');
      return {
        wat: `(local.set $share (select
  (f64.div (f64.load (i32.add ${get(input(s.of, 'i32'))} (local.get $at))) ${get(total)})
  (f64.const 0)
  (f64.gt ${get(total)} (f64.const 0))))`,
        js: `const share = ${total} > 0 ? f64[(${input(s.of, 'i32')} >> 3) + doc]! / ${total} : 0;`,
      };
    },
    factor: (s) => ({
      wat: `(f64.sqrt (f64.add ${get(input(s.floor, 'f64'))} (local.get $share)))`,
      js: `Math.sqrt(${input(s.floor, 'f64')} + share)`,
    }),
  },
  sum: {
    factor: (s) => ({
      wat: `(f64.load (i32.add ${get(input(s.of, 'i32'))} (local.get $at)))`,
      js: `f64[(${input(s.of, 'i32')} >> 3) + doc]!`,
    }),
  },
  count: {
    factor: (s) => ({
      wat: `(f64.add (f64.const 1) (f64.mul ${get(input(s.weight, 'f64'))} (f64.convert_i32_u (i32.load8_u (i32.add ${get(input(s.of, 'i32'))} (local.get $doc))))))`,
      js: `(1 + ${input(s.weight, 'f64')} * u8[${input(s.of, 'i32')} + doc]!)`,
    }),
  },
  code: {
    factor: (s) => {
      const u16 = 'u16' in s && s.u16;
      const cap = 'cap' in s ? s.cap : undefined;
      const load = `(i32.load${u16 ? '16' : '8'}_u${s.at > 0 ? ` offset=${s.at}` : ''} (local.get $row))`;
      const value = u16 ? `u16[(row + ${s.at}) >> 1]!` : `u8[row${s.at > 0 ? ` + ${s.at}` : ''}]!`;
      return {
        wat: `(f64.load (i32.add ${get(input(s.table, 'i32'))} (i32.shl ${cap === undefined ? load : `(select ${load} (i32.const ${cap}) (i32.lt_u ${load} (i32.const ${cap})))`} (i32.const 3))))`,
        js: `f64[(${input(s.table, 'i32')} >> 3) + ${cap === undefined ? value : `Math.min(${value}, ${cap})`}]!`,
      };
    },
  },
};

/** What `part` of each signal of `signals` writes, in order. */
function parts(signals: readonly Signal[], part: 'filter' | 'prepare' | 'factor' | 'adjust'): Code[] {
  return signals.flatMap((signal) => {
    const write = (KINDS[signal.kind] as Kind<Signal>)[part];
    return write ? [write(signal)] : [];
  });
}

/** The product of `factors`, left to right as JavaScript's `*` groups them. */
function product(factors: Code[]): Code {
  if (factors.length === 0) throw new Error('a product of no factors');
  return {
    wat: factors.slice(1).reduce((left, right) => `(f64.mul ${left} ${right.wat})`, factors[0]!.wat),
    js: factors.map((factor) => factor.js).join(' * '),
  };
}

const indent = (text: string, by: string): string => text.replace(/^(?=.)/gm, by);

/** The loop's locals: the loop's own, then each kind's (in KINDS order), i32s before f64s. */
function locals(signals: readonly Signal[]): [string, LocalType][] {
  const used = new Set(signals.map((signal) => signal.kind));
  const all: [string, LocalType][] = [
    ...(['i', 'n', 'doc', 'at', 'row', 'mine'] as const).map((name): [string, LocalType] => [name, 'i32']),
    ...(Object.keys(KINDS) as Signal['kind'][]).flatMap((kind) => (used.has(kind) ? Object.entries(KINDS[kind].locals ?? {}) : [])),
    ['factor', 'f64'],
    ['score', 'f64'],
  ];
  for (const kind of used) {
    if (KINDS[kind].locals && signals.filter((signal) => signal.kind === kind).length > 1) throw new Error(`two signals of kind ${kind}, whose locals are one per loop`);
  }
  return [...all.filter(([, type]) => type === 'i32'), ...all.filter(([, type]) => type === 'f64')];
}

/** Each signal's filter and preparation, the lesson's factor, its adjustments and the score, in `language`. */
function steps(language: keyof Code): string {
  const signals = [...MATCH, ...LESSON];
  const lesson = product(parts(LESSON, 'factor'))[language];
  const match = product(parts(MATCH, 'factor'))[language];
  const factor = language === 'wat' ? `(local.set $factor\n  ${lesson})` : `let factor = ${lesson};`;
  const score = language === 'wat' ? `(local.set $score (f64.mul ${match} (local.get $factor)))` : `const score = ${match} * factor;`;
  return [...parts(signals, 'filter'), ...parts(signals, 'prepare')]
    .map((code) => code[language])
    .concat(factor, ...parts(signals, 'adjust').map((code) => code[language]), score)
    .join('\n');
}

/** The `score` export, as WebAssembly text (indented as in kernels.wat). */
export function scoreWat(): string {
  const text = `(func (export "score")
  ${SCORE_INPUTS.map((each) => `(param $${each.name} ${each.type})`).join(' ')}
  (result i32)
  ${locals([...MATCH, ...LESSON])
    .map(([name, type]) => `(local $${name} ${type})`)
    .join(' ')}
  (block $done
    (loop $next
      (br_if $done (i32.ge_u (local.get $i) (local.get $count)))
      (block $skip
        (local.set $doc (i32.load (i32.add (local.get $docs) (i32.shl (local.get $i) (i32.const 2)))))
        (local.set $at (i32.shl (local.get $doc) (i32.const 3)))
        (br_if $skip (i32.and
          (f64.lt (f64.load (i32.add (local.get $evidence) (local.get $at))) (local.get $lessonFloor))
          (i32.eqz (i32.load8_u (i32.add (local.get $triggered) (local.get $doc))))))
        (br_if $skip (i32.load8_u (i32.add (local.get $shadowed) (local.get $doc))))
        (local.set $mine (i32.lt_u (local.get $doc) (local.get $localLessons)))
        (local.set $row (select
          (i32.add (local.get $metaLocal) (i32.shl (local.get $doc) (i32.const ${ROW_SHIFT})))
          (i32.add (local.get $metaSources) (i32.shl (i32.sub (local.get $doc) (local.get $localLessons)) (i32.const ${ROW_SHIFT})))
          (local.get $mine)))
${indent(steps('wat'), '        ')}
        (f64.store (i32.add (local.get $values) (i32.shl (local.get $n) (i32.const 3))) (local.get $score))
        (i32.store (i32.add (local.get $scored) (i32.shl (local.get $n) (i32.const 2))) (local.get $doc))
        (local.set $n (i32.add (local.get $n) (i32.const 1))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $next)))
  (local.get $n))`;
  return indent(text, '  ');
}

/** kernels-score-js.ts: the same loop in JavaScript, over a workspace's memory. */
export function scoreJs(): string {
  return `// Generated by scripts/build-kernels.mjs from score-signals.ts: do not edit.

/** kernels.wat's score loop in JavaScript (score-kernel.ts writes both), over the memory these views share. */
export function jsScore(u8: Uint8Array, u16: Uint16Array, i32: Int32Array, f64: Float64Array) {
  return (${SCORE_INPUTS.map((each) => `${each.name}: number`).join(', ')}): number => {
    // An i32 parameter is ToInt32 of what was passed, as WebAssembly's: kernels.ts passes them from an array of numbers, where V8 keeps each as a double.
${SCORE_INPUTS.filter((each) => each.type === 'i32')
  .map((each) => `    ${each.name} |= 0;`)
  .join('\n')}
    let n = 0;
    for (let i = 0; i < count; i++) {
      const doc = i32[(docs >> 2) + i]!;
      if (f64[(evidence >> 3) + doc]! < lessonFloor && u8[triggered + doc] === 0) continue;
      if (u8[shadowed + doc] !== 0) continue;
      const mine = doc < localLessons;
      const row = mine ? metaLocal + doc * ${META_BYTES} : metaSources + (doc - localLessons) * ${META_BYTES};
${indent(steps('js'), '      ')}
      f64[(values >> 3) + n] = score;
      i32[(scored >> 2) + n++] = doc;
    }
    return n;
  };
}

export type ScoreKernel = ReturnType<typeof jsScore>;
`;
}
