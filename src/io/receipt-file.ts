import path from 'node:path';
import { readTextIfExists, writeFileAtomic } from './fs.js';
import { RECEIPT_FILE } from './repo.js';
import { ensureStateDir } from './state.js';

/** The text of the last preflight receipt, or undefined when there is none. */
export function readReceiptText(root: string): string | undefined {
  return readTextIfExists(path.join(root, RECEIPT_FILE));
}

/** Records a preflight receipt (not fsynced: a receipt lost in a crash is only asked for again). */
export function writeReceiptText(root: string, text: string): string {
  ensureStateDir(root);
  writeFileAtomic(path.join(root, RECEIPT_FILE), text, { durable: false });
  return RECEIPT_FILE;
}
