import { defineCommand } from '../command.js';

export default defineCommand<{ action: string; feature: string; json: boolean }>({
  command: 'spec <action> <feature>',
  describe: 'spec new "<feature>": write the spec-first documents (requirements, design, tasks) under specs/, pre-filled with the lessons preflight selects',
  example: 'lessons spec new "export invoices as CSV"',
  positionals: {
    action: { required: true, choices: ['new'], describe: 'new: write the documents for a feature' },
    feature: { required: true, describe: 'The feature, in a short sentence' },
  },
  options: {
    json: { type: 'boolean', default: false, describe: 'Print the result as JSON' },
  },
  handler: async (argv, io) => {
    const { newSpec } = await import('../../src/spec/new-spec.js');
    const result = await newSpec({ cwd: argv.C ?? process.cwd(), feature: String(argv.feature), now: new Date() });
    if (argv.json) {
      io.out(JSON.stringify(result, null, 2));
      return 0;
    }
    io.out([...result.files.map((file) => `wrote ${file}`), result.lessons.length > 0 ? `lessons carried in: ${result.lessons.join(', ')}` : 'preflight selected no lessons for this feature'].join('\n'));
    return 0;
  },
});
