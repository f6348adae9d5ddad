/** The headless entry: `npm run cli -- <command>`. Plain Node, no Electron. */
import { runCli } from './run.js';

const code = await runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(`${text}\n`),
  stderr: (text) => process.stderr.write(`${text}\n`),
});
process.exitCode = code;
