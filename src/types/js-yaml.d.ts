/** The part of js-yaml 3 that gray-matter's YAML engine is built on and that we configure. */
declare module 'js-yaml' {
  export interface Schema {
    readonly __schema: unique symbol;
  }
  export const CORE_SCHEMA: Schema;
  export function load(text: string, options?: { schema?: Schema; filename?: string; json?: boolean }): unknown;
  const yaml: { load: typeof load; CORE_SCHEMA: Schema };
  export default yaml;
}
