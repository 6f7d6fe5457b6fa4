/** The part of js-yaml 4 the lesson parser uses. */
declare module 'js-yaml' {
  export interface Schema {
    readonly __schema: unique symbol;
  }
  export const CORE_SCHEMA: Schema;
  export function load(text: string, options?: { schema?: Schema; filename?: string; json?: boolean }): unknown;
  const yaml: { load: typeof load; CORE_SCHEMA: Schema };
  export default yaml;
}
