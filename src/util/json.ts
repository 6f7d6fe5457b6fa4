/** JSON as every generated file writes it: 2-space indent and a final newline. */
export function formatJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
