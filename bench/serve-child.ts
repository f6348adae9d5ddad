/**
 * A server script (`serve`, the trivial fastify route) started in a process of its own, as a
 * user runs it: the benches read its first JSON line for its URLs and stop it with SIGTERM.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');

export interface ServeChild {
  baseUrl: string;
  authUrl: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * Starts a server script in a process of its own and reads its JSON line. A TypeScript script
 * runs through tsx; a built one (`out/cli/index.js`) as a user runs it. `env` adds variables.
 */
export async function startServer(args: string[], env: NodeJS.ProcessEnv = {}): Promise<ServeChild> {
  const script = args[0] ?? '';
  const child = spawn(process.execPath, [...(script.endsWith('.ts') ? ['--import', 'tsx'] : []), ...args], {
    cwd: REPO,
    // Throwaway data: keys in memory (nothing is issued here anyway).
    env: { ...process.env, PROOFDESK_SECRET_STORE: 'memory', PROOFDESK_PASSPHRASE: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((done) => child.on('exit', () => done()));
  const line = await new Promise<string>((done, fail) => {
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (stdout.includes('\n')) done(stdout.slice(0, stdout.indexOf('\n')));
    });
    child.on('exit', (code) => fail(new Error(`serve exited with ${code}: ${stderr}`)));
  });
  const { base_url, auth_url } = JSON.parse(line) as { base_url: string; auth_url?: string };
  return {
    baseUrl: base_url,
    authUrl: auth_url ?? base_url,
    pid: child.pid!,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
