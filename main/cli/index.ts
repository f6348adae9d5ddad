#!/usr/bin/env node
/** The headless entry: `npm run cli -- <command>` (or the built `proofdesk`). Plain Node, no Electron. */
import { reportError } from './error-report.js';
import { runCli } from './run.js';

// The last net: an error thrown outside a command's own handling (a timer, a stream event) is
// still one sentence and an exit code, never Node's stack dump.
for (const event of ['uncaughtException', 'unhandledRejection'] as const) {
  process.on(event, (error: unknown) => {
    const report = reportError(error);
    process.stderr.write(`${report.message}\n`);
    process.exit(report.code);
  });
}

/** A question on the terminal (stderr, so that stdout stays the command's output). */
async function ask(question: string): Promise<string> {
  const { createInterface } = await import('node:readline/promises');
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return await rl.question(question);
  } finally {
    rl.close();
  }
}

// A reader that goes away early (`proofdesk credential list | head -3`) is not an error: stop
// writing to it and finish the command normally (so the data directory is closed properly).
let stdoutGone = false;
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') stdoutGone = true;
  else throw error;
});
process.stderr.on('error', () => undefined);

const code = await runCli(process.argv.slice(2), {
  stdout: (text) => {
    if (!stdoutGone) process.stdout.write(`${text}\n`);
  },
  stderr: (text) => process.stderr.write(`${text}\n`),
  ask: process.stdin.isTTY && process.stderr.isTTY ? ask : undefined,
});
process.exitCode = code;
