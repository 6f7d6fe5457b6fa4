/** Escaping for the report's HTML and markdown: every lesson string goes through one of these. */

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text safe in HTML and SVG content and in a double- or single-quoted attribute value. */
export function escapeHtml(text: string | number): string {
  return String(text).replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

/**
 * Text safe in a GitHub-flavoured markdown table cell: HTML escaped (the job summary renders
 * HTML), pipes and markdown punctuation neutralised, one line.
 */
export function escapeMarkdown(text: string | number): string {
  const plain = String(text).replace(/\s+/g, ' ').trim().replace(/([\\|`*_[\]#~])/g, '\\$1');
  return escapeHtml(plain);
}
