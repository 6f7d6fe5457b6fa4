import path from 'node:path';
import { readTextIfExists, writeInRepo } from './fs.js';
import { RECEIPT_FILE } from './repo.js';
import { ensureStateDir } from './state.js';

/** The text of the last preflight receipt, or undefined when there is none or it is not a regular file. */
export function readReceiptText(root: string): string | undefined {
  try {
    return readTextIfExists(path.join(root, RECEIPT_FILE));
  } catch {
    return undefined;
  }
}

/** Records a preflight receipt (not fsynced: a receipt lost in a crash is only asked for again). */
export function writeReceiptText(root: string, text: string): string {
  ensureStateDir(root);
  writeInRepo(root, RECEIPT_FILE, text, { durable: false });
  return RECEIPT_FILE;
}
