import command from '../commands/report.js';
import { specCommand } from './spec.js';

/** `lessons report` without yargs: its command module's spec, parsed by specCommand(); built into a bundle of its own (cli/fast/bundle.ts). */
export const { run } = specCommand(command.spec);
