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
