import { UsageError } from '../errors.js';
import { inGitHubActions } from './github.js';
import { formatJson } from '../util/json.js';
import { listWords } from '../util/plural.js';

/**
 * Reporters by name, shared by every command that reports: a command declares the ones it has
 * (text and json always), and the caller picks by name. A reporter is pure: a result in, the
 * whole output (ending in a newline) out.
 */
export type Reporter<R> = (result: R) => string;

/** What a person asks for with --format (or --json). */
export const OUTPUT_FORMATS = ['text', 'markdown', 'json'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export function isOutputFormat(name: string): name is OutputFormat {
  return (OUTPUT_FORMATS as readonly string[]).includes(name);
}

export interface Reporters<R> {
  text: Reporter<R>;
  json: Reporter<R>;
  markdown?: Reporter<R>;
  /** GitHub Actions workflow commands (annotations), written before the text in a job. */
  github?: Reporter<R>;
  /** The job summary (markdown appended to $GITHUB_STEP_SUMMARY). */
  summary?: Reporter<R>;
}

export type ReporterName = keyof Reporters<unknown>;

/** The JSON reporter every command shares: 2-space indent and a final newline. */
export const jsonReporter: Reporter<unknown> = formatJson;

/** Lines as one output, each ending in a newline (nothing for no lines). */
export function joinLines(lines: readonly string[]): string {
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

/** The reporter `name`, or a usage error naming the ones there are. */
export function reporter<R>(reporters: Reporters<R>, name: string): Reporter<R> {
  const found = (reporters as unknown as Record<string, Reporter<R> | undefined>)[name];
  if (found === undefined) {
    const names = OUTPUT_FORMATS.filter((format) => reporters[format] !== undefined);
    throw new UsageError(`--format must be ${listWords(names, 'or')}, got '${name}'`);
  }
  return found;
}

/**
 * What goes to stdout for a format: the format's reporter, preceded in a GitHub Actions job
 * by the annotations when the output is text (JSON stays parseable).
 */
export function renderStdout<R>(reporters: Reporters<R>, format: string, result: R, env: Record<string, string | undefined>): string {
  const main = reporter(reporters, format)(result);
  return format === 'text' && reporters.github && inGitHubActions(env) ? reporters.github(result) + main : main;
}

/** The job summary to append to $GITHUB_STEP_SUMMARY, when in a GitHub Actions job with one. */
export function stepSummaryFor<R>(reporters: Reporters<R>, result: R, env: Record<string, string | undefined>): { file: string; text: string } | undefined {
  const file = env.GITHUB_STEP_SUMMARY;
  if (!reporters.summary || !inGitHubActions(env) || !file) return undefined;
  return { file, text: reporters.summary(result) };
}
