/**
 * The end of a script that writes committed, generated files (build-kernels.mjs, build-gates.mjs):
 * with `--check` (in argv), exit 1 naming each file that is not what the script makes; without it,
 * write each file (through a temporary file and a rename).
 */
import fs from 'node:fs';
import path from 'node:path';

/** `files`: each generated file's text by its path from `root`; `stale` follows a stale file's name in the message. */
export function writeOrCheck(root, files, stale) {
  if (process.argv.includes('--check')) {
    const differing = Object.keys(files).filter((file) => {
      const target = path.join(root, file);
      return (fs.existsSync(target) ? fs.readFileSync(target, 'utf8') : '') !== files[file];
    });
    for (const file of differing) process.stderr.write(`${file} ${stale}\n`);
    if (differing.length > 0) process.exit(1);
    return;
  }
  for (const [file, text] of Object.entries(files)) {
    const target = path.join(root, file);
    const temporary = `${target}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, text);
    fs.renameSync(temporary, target);
  }
}
