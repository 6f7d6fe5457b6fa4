// Injected into the CommonJS bundles (scripts/build-bundles.mjs): what import.meta.url is in ESM.
import { pathToFileURL } from 'node:url';

export const import_meta_url = pathToFileURL(__filename).href;
