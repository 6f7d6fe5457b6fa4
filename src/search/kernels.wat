;; The ranking's loops over every lesson a query reaches (src/search/kernels.ts), as
;; WebAssembly: a short process runs them once, mostly before V8 has optimised the JavaScript,
;; where every floating-point value read from a typed array is a new heap object. Compiled here
;; at load (V8's baseline compiler), they run at machine speed from the first posting.
;;
;; Every array lives in the imported memory, at the byte offsets kernels.ts passes: f64 arrays
;; (text, evidence, coverage, values, scores) and the tables at multiples of 8, i32 arrays at
;; multiples of 4, u8 arrays anywhere. The arithmetic is kernels.ts's JavaScript fallback's, in
;; the same order, so both give the same scores to the last bit.
;;
;; scripts/build-kernels.mjs assembles this file, with the score loop written in at `;; @score`,
;; into src/search/kernels-wasm.ts (`node scripts/build-kernels.mjs --wat` prints it whole).
(module
  (import "env" "memory" (memory 1))

  ;; One run of a term's postings (lesson numbers u32, stored scores f32, field bits u8, `len`
  ;; of each) added to the per-lesson sums; a lesson reached for the first time is marked and
  ;; appended to `docs`. Returns the new count of `docs`.
  (func (export "fold")
    (param $pDocs i32) (param $pScores i32) (param $pFields i32) (param $len i32) (param $offset i32)
    (param $weight f64) (param $proofOf i32) (param $coverageOf i32) (param $tagBits i32) (param $keywordBits i32)
    (param $text i32) (param $evidence i32) (param $coverage i32) (param $tags i32) (param $keywords i32)
    (param $isCandidate i32) (param $docs i32) (param $count i32)
    (result i32)
    (local $i i32) (local $doc i32) (local $bits i32) (local $at i32) (local $table i32)
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $len)))
        (local.set $doc (i32.add (local.get $offset) (i32.load (i32.add (local.get $pDocs) (i32.shl (local.get $i) (i32.const 2))))))
        (local.set $bits (i32.load8_u (i32.add (local.get $pFields) (local.get $i))))
        (if (i32.eqz (i32.load8_u (i32.add (local.get $isCandidate) (local.get $doc))))
          (then
            (i32.store8 (i32.add (local.get $isCandidate) (local.get $doc)) (i32.const 1))
            (i32.store (i32.add (local.get $docs) (i32.shl (local.get $count) (i32.const 2))) (local.get $doc))
            (local.set $count (i32.add (local.get $count) (i32.const 1)))))
        (local.set $at (i32.shl (local.get $doc) (i32.const 3)))
        (local.set $table (i32.shl (local.get $bits) (i32.const 3)))
        (f64.store (i32.add (local.get $text) (local.get $at))
          (f64.add (f64.load (i32.add (local.get $text) (local.get $at)))
            (f64.mul (local.get $weight) (f64.promote_f32 (f32.load (i32.add (local.get $pScores) (i32.shl (local.get $i) (i32.const 2))))))))
        (f64.store (i32.add (local.get $evidence) (local.get $at))
          (f64.add (f64.load (i32.add (local.get $evidence) (local.get $at))) (f64.load (i32.add (local.get $proofOf) (local.get $table)))))
        (f64.store (i32.add (local.get $coverage) (local.get $at))
          (f64.add (f64.load (i32.add (local.get $coverage) (local.get $at))) (f64.load (i32.add (local.get $coverageOf) (local.get $table)))))
        (if (i32.and (local.get $bits) (local.get $tagBits))
          (then (i32.store8 (i32.add (local.get $tags) (local.get $doc))
            (i32.add (i32.load8_u (i32.add (local.get $tags) (local.get $doc))) (i32.const 1)))))
        (if (i32.and (local.get $bits) (local.get $keywordBits))
          (then (i32.store8 (i32.add (local.get $keywords) (local.get $doc))
            (i32.add (i32.load8_u (i32.add (local.get $keywords) (local.get $doc))) (i32.const 1)))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next)))
    (local.get $count))

  ;; values[i] = source[docs[i]] for i < count.
  (func (export "gather") (param $docs i32) (param $count i32) (param $source i32) (param $values i32)
    (local $i i32)
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $count)))
        (f64.store (i32.add (local.get $values) (i32.shl (local.get $i) (i32.const 3)))
          (f64.load (i32.add (local.get $source)
            (i32.shl (i32.load (i32.add (local.get $docs) (i32.shl (local.get $i) (i32.const 2)))) (i32.const 3)))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next))))

  ;; The min-heap of `length` f64 at `heap`: moves the value at `from` down to its place.
  (func $siftDown (param $heap i32) (param $length i32) (param $from i32)
    (local $at i32) (local $left i32) (local $child i32) (local $swap f64)
    (local.set $at (local.get $from))
    (block $done
      (loop $next
        (local.set $left (i32.add (i32.shl (local.get $at) (i32.const 1)) (i32.const 1)))
        (br_if $done (i32.ge_u (local.get $left) (local.get $length)))
        (local.set $child (local.get $left))
        (if (i32.lt_u (i32.add (local.get $left) (i32.const 1)) (local.get $length))
          (then
            (if (f64.lt (f64.load (i32.add (local.get $heap) (i32.shl (i32.add (local.get $left) (i32.const 1)) (i32.const 3))))
                        (f64.load (i32.add (local.get $heap) (i32.shl (local.get $left) (i32.const 3)))))
              (then (local.set $child (i32.add (local.get $left) (i32.const 1)))))))
        (br_if $done (i32.eqz (f64.lt (f64.load (i32.add (local.get $heap) (i32.shl (local.get $child) (i32.const 3))))
                                      (f64.load (i32.add (local.get $heap) (i32.shl (local.get $at) (i32.const 3)))))))
        (local.set $swap (f64.load (i32.add (local.get $heap) (i32.shl (local.get $at) (i32.const 3)))))
        (f64.store (i32.add (local.get $heap) (i32.shl (local.get $at) (i32.const 3)))
          (f64.load (i32.add (local.get $heap) (i32.shl (local.get $child) (i32.const 3)))))
        (f64.store (i32.add (local.get $heap) (i32.shl (local.get $child) (i32.const 3))) (local.get $swap))
        (local.set $at (local.get $child))
        (br $next))))

  ;; The k-th largest of `count` values (-inf when there are fewer), kept in a min-heap of k at `heap`.
  (func (export "kthLargest") (param $values i32) (param $count i32) (param $k i32) (param $heap i32) (result f64)
    (local $i i32) (local $value f64)
    (if (i32.lt_u (local.get $count) (local.get $k)) (then (return (f64.const -inf))))
    (memory.copy (local.get $heap) (local.get $values) (i32.shl (local.get $k) (i32.const 3)))
    (local.set $i (i32.sub (i32.shr_u (local.get $k) (i32.const 1)) (i32.const 1)))
    (block $built
      (loop $heapify
        (br_if $built (i32.lt_s (local.get $i) (i32.const 0)))
        (call $siftDown (local.get $heap) (local.get $k) (local.get $i))
        (local.set $i (i32.sub (local.get $i) (i32.const 1)))
        (br $heapify)))
    (local.set $i (local.get $k))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $count)))
        (local.set $value (f64.load (i32.add (local.get $values) (i32.shl (local.get $i) (i32.const 3)))))
        (if (f64.gt (local.get $value) (f64.load (local.get $heap)))
          (then
            (f64.store (local.get $heap) (local.get $value))
            (call $siftDown (local.get $heap) (local.get $k) (i32.const 0))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next)))
    (f64.load (local.get $heap)))

  ;; The ids[i] (i < count) whose values[i] is at least `threshold` (and above 0 when
  ;; `positive`), or who are marked in `marked` (a u8 per id; 0: no marks), written to `out`
  ;; in order, and their values to `outValues` (0: not wanted). Returns how many.
  (func (export "atLeast")
    (param $ids i32) (param $values i32) (param $count i32) (param $threshold f64) (param $positive i32) (param $marked i32) (param $out i32) (param $outValues i32)
    (result i32)
    (local $i i32) (local $n i32) (local $id i32) (local $value f64) (local $keep i32)
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $count)))
        (local.set $id (i32.load (i32.add (local.get $ids) (i32.shl (local.get $i) (i32.const 2)))))
        (local.set $value (f64.load (i32.add (local.get $values) (i32.shl (local.get $i) (i32.const 3)))))
        (local.set $keep (f64.ge (local.get $value) (local.get $threshold)))
        (if (local.get $positive) (then (local.set $keep (i32.and (local.get $keep) (f64.gt (local.get $value) (f64.const 0))))))
        (if (local.get $marked)
          (then (local.set $keep (i32.or (local.get $keep) (i32.load8_u (i32.add (local.get $marked) (local.get $id)))))))
        (if (local.get $keep)
          (then
            (i32.store (i32.add (local.get $out) (i32.shl (local.get $n) (i32.const 2))) (local.get $id))
            (if (local.get $outValues)
              (then (f64.store (i32.add (local.get $outValues) (i32.shl (local.get $n) (i32.const 3))) (local.get $value))))
            (local.set $n (i32.add (local.get $n) (i32.const 1)))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next)))
    (local.get $n))

;; For each of `count` lessons in ascending order at `kept` (i32), the field bits of its
  ;; posting in a run (lesson numbers u32 from `offset`, ascending, and field bits u8, `len` of
  ;; each), or 0 when the run has none, to `out` (a u8 per lesson): one walk along both.
  (func (export "fieldsOf")
    (param $pDocs i32) (param $pFields i32) (param $len i32) (param $offset i32) (param $kept i32) (param $count i32) (param $out i32)
    (local $k i32) (local $i i32) (local $target i32) (local $bits i32)
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $k) (local.get $count)))
        (local.set $target (i32.sub (i32.load (i32.add (local.get $kept) (i32.shl (local.get $k) (i32.const 2)))) (local.get $offset)))
        (local.set $bits (i32.const 0))
        (if (i32.ge_s (local.get $target) (i32.const 0))
          (then
            (block $found
              (loop $advance
                (br_if $found (i32.ge_u (local.get $i) (local.get $len)))
                (br_if $found (i32.ge_u (i32.load (i32.add (local.get $pDocs) (i32.shl (local.get $i) (i32.const 2)))) (local.get $target)))
                (local.set $i (i32.add (local.get $i) (i32.const 1)))
                (br $advance)))
            (if (i32.lt_u (local.get $i) (local.get $len))
              (then
                (if (i32.eq (i32.load (i32.add (local.get $pDocs) (i32.shl (local.get $i) (i32.const 2)))) (local.get $target))
                  (then (local.set $bits (i32.load8_u (i32.add (local.get $pFields) (local.get $i))))))))))
        (i32.store8 (i32.add (local.get $out) (local.get $k)) (local.get $bits))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $next))))

  ;; The score of every candidate lesson that may be shown (kernels.ts, score): written here by
  ;; scripts/build-kernels.mjs from the table of the score's signals (score-signals.ts,
  ;; score-kernel.ts has how each kind of signal is written).
  ;; @score

  ;; termScore() of each of `len` postings, operation for operation as scoreNext() in
  ;; search-merge.ts computes it: field bits u8 from $pFields, their varints (a frequency and a
  ;; field length for each field whose bit is set, fields in order) from $pRaw. Per field f of
  ;; $width: its bit (i32 at $pBits + 4f), its weight (boost x idf, f64 at $pWeights + 8f) and the
  ;; corpus's average length (f64 at $pAvg + 8f). The scores go to $pOut as f32.
  (func (export "scoreRaw")
    (param $pFields i32) (param $pRaw i32) (param $len i32) (param $pBits i32) (param $pWeights i32) (param $pAvg i32) (param $width i32)
    (param $k f64) (param $oneMinusB f64) (param $b f64) (param $d f64) (param $kPlus1 f64) (param $pOut i32)
    (local $i i32) (local $at i32) (local $bits i32) (local $f i32) (local $byte i32) (local $shift i64)
    (local $frequency i64) (local $length i64) (local $tf f64) (local $norm f64) (local $score f64)
    (local.set $at (local.get $pRaw))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $len)))
        (local.set $bits (i32.load8_u (i32.add (local.get $pFields) (local.get $i))))
        (local.set $score (f64.const 0))
        (local.set $f (i32.const 0))
        (block $fieldsDone
          (loop $field
            (br_if $fieldsDone (i32.ge_u (local.get $f) (local.get $width)))
            (if (i32.and (local.get $bits) (i32.load (i32.add (local.get $pBits) (i32.shl (local.get $f) (i32.const 2)))))
              (then
                (local.set $frequency (i64.const 0))
                (local.set $shift (i64.const 0))
                (loop $more
                  (local.set $byte (i32.load8_u (local.get $at)))
                  (local.set $at (i32.add (local.get $at) (i32.const 1)))
                  (local.set $frequency (i64.or (local.get $frequency)
                    (i64.shl (i64.extend_i32_u (i32.and (local.get $byte) (i32.const 0x7f))) (local.get $shift))))
                  (local.set $shift (i64.add (local.get $shift) (i64.const 7)))
                  (br_if $more (i32.ge_u (local.get $byte) (i32.const 0x80))))
                (local.set $length (i64.const 0))
                (local.set $shift (i64.const 0))
                (loop $more
                  (local.set $byte (i32.load8_u (local.get $at)))
                  (local.set $at (i32.add (local.get $at) (i32.const 1)))
                  (local.set $length (i64.or (local.get $length)
                    (i64.shl (i64.extend_i32_u (i32.and (local.get $byte) (i32.const 0x7f))) (local.get $shift))))
                  (local.set $shift (i64.add (local.get $shift) (i64.const 7)))
                  (br_if $more (i32.ge_u (local.get $byte) (i32.const 0x80))))
                (if (i64.ne (local.get $frequency) (i64.const 0))
                  (then
                    (local.set $tf (f64.convert_i64_u (local.get $frequency)))
                    (local.set $norm (f64.add (local.get $tf)
                      (f64.mul (local.get $k)
                        (f64.add (local.get $oneMinusB)
                          (f64.div (f64.mul (local.get $b) (f64.convert_i64_u (local.get $length)))
                            (f64.load (i32.add (local.get $pAvg) (i32.shl (local.get $f) (i32.const 3)))))))))
                    (local.set $score (f64.add (local.get $score)
                      (f64.mul (f64.load (i32.add (local.get $pWeights) (i32.shl (local.get $f) (i32.const 3))))
                        (f64.add (local.get $d) (f64.div (f64.mul (local.get $tf) (local.get $kPlus1)) (local.get $norm))))))))))
            (local.set $f (i32.add (local.get $f) (i32.const 1)))
            (br $field)))
        (f32.store (i32.add (local.get $pOut) (i32.shl (local.get $i) (i32.const 2))) (f32.demote_f64 (local.get $score)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next))))
)
