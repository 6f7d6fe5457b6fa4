/**
 * What a harness is to lessons, declared in its folder (src/harness/<name>/declaration.ts) and
 * listed once in registry.ts. A declaration is data and a few lines of input reading: it loads
 * with every `lessons hook` run, so the code that answers an event and the code that edits the
 * settings file are behind `import()` and load only when they run.
 */
import type { HookInput, HookRun } from '../agent/input.js';
import type { HarnessProbe } from './probe.js';
import type { SettingsResult } from './settings-file.js';

/** The code that answers one event of a harness: the text to print. */
export interface HarnessHook {
  answer(event: string, input: HookInput, run: HookRun): Promise<string>;
}

export interface InstallOptions {
  /**
   * How the hook runs `lessons` (e.g. `npx --no-install lessons`); by default the project's
   * node_modules/.bin/lessons, else `lessons` on PATH (hook-command.ts).
   */
  command?: string;
}

/** `lessons hooks install|uninstall --<name>`: our entries merged into, or removed from, the settings file. */
export interface HarnessSettings {
  install(root: string, options?: InstallOptions): SettingsResult;
  uninstall(root: string): SettingsResult;
}

export interface HarnessDeclaration {
  /** The word in `lessons hook <name>` and `lessons hooks install --<name>`. */
  readonly name: string;
  /** The product, as its makers spell it. */
  readonly product: string;
  /**
   * Every event the hook answers, each with its neutral answer: the one that changes nothing,
   * which a disabled, failing or late hook prints.
   */
  readonly events: Readonly<Record<string, string>>;
  /** The neutral answer to an event not in `events` (one a newer version of the harness added). */
  readonly otherNeutral: string;
  /** The settings file (repo-relative) and the events install writes a handler for there. */
  readonly settings: { readonly file: string; readonly events: readonly string[] };
  /** The variable the harness sets to the project's directory, which the hook command looks in first. */
  readonly projectDirVariable?: string;
  /** Where the input and environment say the project is, tried after the input's `cwd`. */
  projectDirs(input: HookInput, env: Record<string, string | undefined>): (string | undefined)[];
  loadHook(): Promise<HarnessHook>;
  loadSettings(): Promise<HarnessSettings>;
  /**
   * How `lessons doctor --run-hooks` runs this harness's hooks and judges their answers
   * (`<name>/probe.ts`: sample events, environment, default timeout, output contract). A harness
   * without one is reported as not checked.
   */
  loadProbe?(): Promise<HarnessProbe>;
}
