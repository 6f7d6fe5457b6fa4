import { defineCommand } from '../command.js';

export default defineCommand<{ 'allow-write': boolean }>({
  command: 'mcp',
  describe: 'Serve the lessons to agents over the Model Context Protocol (stdio): preflight, search, show, capture',
  example: 'lessons mcp --allow-write',
  options: {
    'allow-write': { type: 'boolean', default: false, describe: 'Let the capture tool write candidate lessons (read-only otherwise)' },
  },
  handler: async (argv) => {
    const { serveStdio } = await import('../../src/mcp/server.js');
    const fs = await import('node:fs');
    const { packageFile } = await import('../../src/io/package-root.js');
    const { version } = JSON.parse(fs.readFileSync(packageFile('package.json'), 'utf8')) as { version: string };
    await serveStdio({ cwd: argv.C ?? process.cwd(), allowWrite: argv['allow-write'], now: () => new Date(), version });
    return 0;
  },
});
