import path from 'node:path';
import { packageFile } from '../io/package-root.js';
import { NOT_REGULAR, readRegularTextWithin } from '../io/fs.js';
import { makeTempDir, removeTree } from '../io/paths.js';
import { runBounded, type RunOutcome } from '../io/subprocess.js';
import type { ReviewPolicy } from '../policy/policy.js';
import { validateAgainst, type SchemaName } from '../schema/validate.js';
import type { ReviewerProblem } from './findings.js';

export type ReviewerSchema = Extract<SchemaName, 'semantic-review' | 'lesson-draft' | 'lesson-rerank' | 'ask-answer'>;

export interface ReviewerCall {
  root: string;
  review: Pick<ReviewPolicy, 'command' | 'timeout_seconds' | 'max_output_bytes'>;
  schema: ReviewerSchema;
  prompt: string;
}

export type ReviewerAnswer = { ok: true; data: unknown } | { ok: false; problem: ReviewerProblem };

const POLICY_HINT = 'review.command in policy/workflow-policy.json';

export function schemaPath(schema: ReviewerSchema): string {
  return packageFile('schemas', `${schema}.schema.json`);
}

/** The argv with `{schema}`, `{output}` and `{root}` replaced; nothing else is interpreted. */
export function expandCommand(command: readonly string[], values: { schema: string; output: string; root: string }): string[] {
  return command.map((arg) => arg.replace(/\{(schema|output|root)\}/g, (_, key: keyof typeof values) => values[key]));
}

/**
 * Runs the configured reviewer with `prompt` on stdin and returns its answer once it parses
 * as JSON and matches the schema. Every other outcome is a problem that says what happened
 * and what to do; nothing the reviewer prints is ever executed.
 */
export async function askReviewer(call: ReviewerCall): Promise<ReviewerAnswer> {
  const dir = makeTempDir('lessons-reviewer-');
  const output = path.join(dir, 'answer.json');
  const argv = expandCommand(call.review.command, { schema: schemaPath(call.schema), output, root: call.root });
  const usesOutputFile = call.review.command.some((arg) => arg.includes('{output}'));
  const maxBytes = call.review.max_output_bytes;
  try {
    const outcome = await runBounded({
      argv,
      cwd: call.root,
      input: call.prompt,
      timeoutMs: call.review.timeout_seconds * 1000,
      maxStdoutBytes: maxBytes,
    });
    if (outcome.kind !== 'exited' || outcome.exitCode !== 0) return { ok: false, problem: runProblem(outcome, call, argv) };
    const answer = usesOutputFile ? readAnswerFile(output, maxBytes) : { text: outcome.stdout.toString('utf8') };
    if ('problem' in answer) return { ok: false, problem: answer.problem };
    return parseAnswer(answer.text, call.schema, usesOutputFile ? 'the output file' : 'stdout', outcome.stderr);
  } finally {
    removeTree(dir);
  }
}

/** The {output} file, read only when it is a regular file (a FIFO the reviewer left would block the read). */
function readAnswerFile(file: string, maxBytes: number): { text: string } | { problem: ReviewerProblem } {
  const read = readRegularTextWithin(file, maxBytes);
  if (read.kind === 'unopened') {
    const { code } = read.error;
    if (code === 'ENOENT') return { problem: silent('the reviewer exited without writing its answer to the {output} file') };
    return { problem: silent(`the reviewer's {output} is not a regular file (${code === NOT_REGULAR ? 'a FIFO, socket or device' : read.error.message}): its answer was not read`) };
  }
  if (read.kind === 'too-large') {
    return {
      problem: {
        rule: 'reviewer-output-too-large',
        message: `the reviewer wrote ${read.size} bytes, over review.max_output_bytes (${maxBytes}): its answer was not read`,
        fix: 'raise review.max_output_bytes in policy/workflow-policy.json, or check that the reviewer answers with the JSON object alone',
        evidence: '',
      },
    };
  }
  return { text: read.text };
}

function silent(message: string, evidence = ''): ReviewerProblem {
  return {
    rule: 'reviewer-silent',
    message,
    fix: `check that the reviewer answers (run it by hand with the same argv), and that ${POLICY_HINT} passes the {output} placeholder where the reviewer expects its output file`,
    evidence,
  };
}

function parseAnswer(text: string, schema: ReviewerSchema, where: string, stderr: string): ReviewerAnswer {
  if (text.trim() === '') return { ok: false, problem: silent(`the reviewer exited 0 but its answer (${where}) is empty`, stderr) };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      problem: {
        rule: 'reviewer-invalid-json',
        message: `the reviewer's answer (${where}) is not JSON: ${(error as Error).message}`,
        fix: `make the reviewer answer with the JSON object alone: for codex, keep --output-schema {schema} in ${POLICY_HINT}`,
        evidence: excerpt(text),
      },
    };
  }
  const errors = validateAgainst(schema, data);
  if (errors.length > 0) {
    const shown = errors.slice(0, 5).map((error) => `${error.field} ${error.message}`);
    return {
      ok: false,
      problem: {
        rule: 'reviewer-schema',
        message: `the reviewer's answer does not match schemas/${schema}.schema.json: ${shown.join('; ')}${errors.length > 5 ? `; and ${errors.length - 5} more` : ''}`,
        fix: `pass the schema to the reviewer (codex: --output-schema {schema} in ${POLICY_HINT}); its findings were not used`,
        evidence: excerpt(text),
      },
    };
  }
  return { ok: true, data };
}

function runProblem(outcome: Exclude<RunOutcome, { kind: 'exited'; exitCode: 0 }>, call: ReviewerCall, argv: string[]): ReviewerProblem {
  const program = argv[0] ?? '';
  switch (outcome.kind) {
    case 'missing':
      return {
        rule: 'reviewer-missing',
        message: `the reviewer could not be started: ${outcome.message}`,
        fix:
          program === 'codex'
            ? `install the Codex CLI (npm install -g @openai/codex) and sign in, or set ${POLICY_HINT} to another reviewer`
            : `install \`${program}\` or set ${POLICY_HINT} to a reviewer that exists`,
        evidence: '',
      };
    case 'timeout':
      return {
        rule: 'reviewer-timeout',
        message: `the reviewer did not finish within ${call.review.timeout_seconds}s and was stopped, with every process it started`,
        fix: 'raise review.timeout_seconds or lower review.max_prompt_bytes in policy/workflow-policy.json, or check that the reviewer can reach its model',
        evidence: stderrTail(outcome.stderr),
      };
    case 'too-much-output':
      return {
        rule: 'reviewer-output-too-large',
        message: `the reviewer printed more than ${outcome.stream === 'stdout' ? `review.max_output_bytes (${call.review.max_output_bytes})` : 'the stderr limit'} on ${outcome.stream} and was stopped`,
        fix: 'raise review.max_output_bytes in policy/workflow-policy.json, or check that the reviewer answers with the JSON object alone',
        evidence: stderrTail(outcome.stderr),
      };
    case 'signal':
      return {
        rule: 'reviewer-crashed',
        message: `the reviewer was killed by ${outcome.signal}`,
        fix: 'run the reviewer by hand with the same argv to see why it died',
        evidence: stderrTail(outcome.stderr),
      };
    case 'failed':
      return {
        rule: 'reviewer-failed',
        message: `the reviewer could not be run: ${outcome.message}`,
        fix: `check ${POLICY_HINT}`,
        evidence: stderrTail(outcome.stderr),
      };
    case 'exited':
      return {
        rule: 'reviewer-failed',
        message: `the reviewer exited with code ${outcome.exitCode}${lastLine(outcome.stderr)}`,
        fix: `run the reviewer by hand to see its error (signed in? model reachable?), or fix ${POLICY_HINT}`,
        evidence: stderrTail(outcome.stderr),
      };
  }
}

/** The end of stderr, where the reason usually is; the start often echoes the prompt. */
function stderrTail(stderr: string): string {
  return stderr.split('\n').slice(-8).join('\n');
}

function lastLine(stderr: string): string {
  const line = stderr.split('\n').map((l) => l.trim()).filter(Boolean).pop();
  return line === undefined ? '' : `: ${line.length > 200 ? `${line.slice(0, 200)}…` : line}`;
}

function excerpt(text: string): string {
  const trimmed = text.trim();
  return trimmed.length > 300 ? `${trimmed.slice(0, 300)}…` : trimmed;
}
