/**
 * GitHub Actions workflow commands (`::warning file=…,line=…,title=…::message`), escaped as
 * the runner unescapes them: in the message `%`, CR and LF; in property values also `:` and `,`.
 */
export type AnnotationLevel = 'error' | 'warning' | 'notice';

export interface Annotation {
  level: AnnotationLevel;
  message: string;
  file?: string | undefined;
  line?: number | undefined;
  title?: string | undefined;
}

export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

export function annotationLine(annotation: Annotation): string {
  const properties: string[] = [];
  if (annotation.file !== undefined) properties.push(`file=${escapeProperty(annotation.file)}`);
  if (annotation.file !== undefined && annotation.line !== undefined) properties.push(`line=${annotation.line}`);
  if (annotation.title !== undefined) properties.push(`title=${escapeProperty(annotation.title)}`);
  const head = properties.length === 0 ? `::${annotation.level}` : `::${annotation.level} ${properties.join(',')}`;
  return `${head}::${escapeData(annotation.message)}`;
}

/** True inside a GitHub Actions job (the runner sets GITHUB_ACTIONS=true in every step), where these lines become annotations. */
export function inGitHubActions(env: Record<string, string | undefined>): boolean {
  return env.GITHUB_ACTIONS === 'true';
}

/**
 * The hidden line (an HTML comment: GitHub's markdown does not show it) that opens the guard's
 * section "Lessons for this change": the workflow's comment step finds its one PR comment by it.
 */
export const PR_SECTION_MARKER = '<!-- lessons:pr-section -->';

/** In the section when no lesson applies: the comment step then rewrites a comment it posted before, and posts none. */
export const NO_LESSONS_MARKER = '<!-- lessons:pr-section:none -->';
