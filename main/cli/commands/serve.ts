import { isLoopbackHost, operatorLine, startServer, type LogFormat, type RunningServer } from '../../api/index.js';
import { parseCommand, userPath } from '../args.js';
import { describeDatabaseUrl } from '../../engine/store/open-engine-database.js';
import { normalizePublicUrl } from '../../engine/vc/status-list-store.js';
import { UsageError } from '../cli-error.js';
import { withEngine, type CliContext } from '../context.js';

export const USAGE = `serve [--host 127.0.0.1] [--port N] [--environment demo|live] [--auth-issuer URL]
      [--allowed-host NAME[:PORT]]... [--max-file-size SIZE] [--did-web-partner ID|NAME]
      [--public-url URL|none]
      [--tls-cert FILE --tls-key FILE | --insecure-http] [--log text|json]
                                                      serve the spec over HTTP: the API under /api, the token endpoint
                                                      under /realms/proofdesk (client ids and secrets from \`partner add\`);
                                                      prints one JSON line {"base_url", "auth_url"} once listening and
                                                      runs until Ctrl-C / SIGTERM. --port 0 (default) picks a free port;
                                                      --environment demo (default) allows POST /jobs/immediate;
                                                      --auth-issuer trusts an OpenID provider's tokens instead of ours;
                                                      SIZE like 2GiB (default), 500MiB;
                                                      --did-web-partner publishes that Partner's did:web document
                                                      (its signing key) at /.well-known/did.json;
                                                      --public-url https://issuer.example: where this server is reached
                                                      from outside, kept in the data directory (none removes it): the
                                                      Verifiable Credentials exported then carry a credentialStatus
                                                      naming their status list, served at URL/status/PARTNER/LIST;
                                                      --tls-cert/--tls-key serve HTTPS (HTTP/1.1 and HTTP/2), reloaded on
                                                      SIGHUP; plain HTTP beyond loopback needs --insecure-http (a TLS
                                                      proxy in front); --log: one line per request, text on a terminal,
                                                      else json (default)`;

/** How often unused uploads past their hour are deleted while serving. */
const SWEEP_INTERVAL_MS = 60_000;
/** A second signal this long after the first stops at once, without waiting for requests in flight. */
const FORCE_AFTER_MS = 2_000;
/** How long requests in flight get to finish after SIGTERM before their connections are cut. */
export const SHUTDOWN_GRACE_MS = 30_000;

const SIZE_UNITS: Record<string, number> = { '': 1, b: 1, k: 1024, kib: 1024, m: 1024 ** 2, mib: 1024 ** 2, g: 1024 ** 3, gib: 1024 ** 3 };

/** Parses a byte size such as `2GiB`, `500MiB` or `1048576`. */
export function parseSize(text: string): number {
  const match = /^(\d+)\s*([a-z]*)$/i.exec(text.trim());
  const factor = match ? SIZE_UNITS[match[2]!.toLowerCase()] : undefined;
  const bytes = match && factor !== undefined ? Number(match[1]) * factor : NaN;
  if (!Number.isSafeInteger(bytes) || bytes < 1) throw new UsageError(`--max-file-size takes a size such as 2GiB, 500MiB or 1048576; got ${JSON.stringify(text)}`);
  return bytes;
}

function parsePort(text: string | undefined): number {
  if (text === undefined) return 0;
  const port = /^\d{1,5}$/.test(text) ? Number(text) : NaN;
  if (!(port >= 0 && port <= 65535)) throw new UsageError(`--port takes 0 to 65535, got ${JSON.stringify(text)}`);
  return port;
}

/** `--public-url`: the URL normalized, null for `none` (remove it), undefined when not given. */
function parsePublicUrl(text: string | undefined): string | null | undefined {
  if (text === undefined || text === 'none') return text === 'none' ? null : undefined;
  try {
    return normalizePublicUrl(text);
  } catch (error) {
    throw new UsageError(`--public-url: ${(error as Error).message}`);
  }
}

/** Resolves with the first SIGINT or SIGTERM; a second one a little later ends the process at once. */
function firstSignal(ctx: CliContext): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    let first: number | undefined;
    const onSignal = (signal: NodeJS.Signals) => {
      if (first === undefined) {
        first = Date.now();
        resolve(signal);
      } else if (Date.now() - first > FORCE_AFTER_MS) {
        ctx.stderr(`${signal} again: stopping now`);
        process.exit(130);
      }
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}

/** The log format `--log` names; by default text for a person at a terminal, JSON for a log collector. */
function logFormat(text: string | undefined): LogFormat {
  if (text === undefined) return process.stderr.isTTY ? 'text' : 'json';
  if (text !== 'text' && text !== 'json') throw new UsageError(`--log takes text or json, got ${JSON.stringify(text)}`);
  return text;
}

/** The TLS files, or none; plain HTTP beyond loopback only when the operator says a TLS proxy is in front. */
function tlsFiles(host: string, certFile: string | undefined, keyFile: string | undefined, insecureHttp: boolean): { certFile: string; keyFile: string } | undefined {
  if ((certFile === undefined) !== (keyFile === undefined)) throw new UsageError('--tls-cert and --tls-key go together: give both files, or neither');
  if (certFile !== undefined && keyFile !== undefined) {
    if (insecureHttp) throw new UsageError('--insecure-http and --tls-cert contradict each other: choose HTTPS or plain HTTP');
    return { certFile: userPath(certFile)!, keyFile: userPath(keyFile)! };
  }
  if (!isLoopbackHost(host) && !insecureHttp) {
    throw new UsageError(`Binding ${host} without TLS would send tokens and client secrets in clear: give --tls-cert and --tls-key, or --insecure-http when a TLS-terminating proxy is in front.`);
  }
  return undefined;
}

/** Stops the server: requests in flight get SHUTDOWN_GRACE_MS to finish, then their connections are cut. */
async function closeWithin(server: RunningServer, ctx: CliContext, format: LogFormat): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), SHUTDOWN_GRACE_MS)));
  const closed = server.close().then(() => 'closed' as const);
  try {
    if ((await Promise.race([closed, late])) === 'late') {
      ctx.stderr(operatorLine(format, 'warn', `Requests still in flight after ${SHUTDOWN_GRACE_MS / 1000} s: closing their connections`));
      server.dropConnections();
      await closed;
    }
  } finally {
    clearTimeout(timer);
  }
}

/** `serve`: the REST server over the engine of --data, with its scheduler, until a signal. */
export async function run(args: string[], ctx: CliContext): Promise<number> {
  const { values, positionals } = parseCommand(args, {
    host: { type: 'string', default: '127.0.0.1' },
    port: { type: 'string' },
    environment: { type: 'string', default: 'demo' },
    'auth-issuer': { type: 'string' },
    'allowed-host': { type: 'string', multiple: true },
    'max-file-size': { type: 'string' },
    'did-web-partner': { type: 'string' },
    'public-url': { type: 'string' },
    'tls-cert': { type: 'string' },
    'tls-key': { type: 'string' },
    'insecure-http': { type: 'boolean', default: false },
    log: { type: 'string' },
  });
  if (positionals.length > 0) throw new UsageError(`serve takes no arguments, got ${positionals.join(' ')}\n${USAGE}`);
  const environment = values.environment;
  if (environment !== 'demo' && environment !== 'live') throw new UsageError(`--environment takes demo or live, got ${JSON.stringify(environment)}`);
  const port = parsePort(values.port);
  const fileSize = values['max-file-size'] === undefined ? undefined : parseSize(values['max-file-size']);
  const publicUrl = parsePublicUrl(values['public-url']);
  const tls = tlsFiles(values.host, values['tls-cert'], values['tls-key'], values['insecure-http']);
  const format = logFormat(values.log);
  const signal = firstSignal(ctx);

  return withEngine(
    userPath(values.data),
    async (engine) => {
      const sweeper = setInterval(() => {
        try {
          engine.sweepUnusedFiles();
        } catch (error) {
          ctx.stderr(operatorLine(format, 'error', `proofdesk serve: could not delete expired uploads: ${(error as Error).message}`));
        }
      }, SWEEP_INTERVAL_MS);
      try {
        if (publicUrl !== undefined) engine.setPublicUrl(publicUrl);
        // Requests reach this server under its public name (through a reverse proxy): answer it.
        const publicHost = engine.publicUrl === undefined ? [] : [new URL(engine.publicUrl).host];
        let server: RunningServer;
        try {
          server = await startServer({
            engine,
            environment,
            host: values.host,
            port,
            authIssuer: values['auth-issuer'],
            allowedHosts: [...(values['allowed-host'] ?? []), ...publicHost],
            limits: fileSize === undefined ? undefined : { upload: { fileSize } },
            didWebPartner: values['did-web-partner'] === undefined ? undefined : engine.partners.resolve(values['did-web-partner']).id,
            tls,
            requestLog: { format, write: ctx.stderr },
            log: format === 'json' ? (line) => ctx.stderr(operatorLine('json', 'error', line)) : undefined,
          });
        } catch (error) {
          ctx.stderr(operatorLine(format, 'error', `proofdesk serve: cannot start: ${(error as Error).message}`));
          return 1;
        }
        ctx.stdout(JSON.stringify({ base_url: server.baseUrl, auth_url: server.authUrl }));
        ctx.stderr(operatorLine(format, 'info', `Proofdesk serves ${servedData(engine.dataDir)} (${environment}) at ${server.baseUrl}; stop with Ctrl-C`));
        const reload = () => {
          try {
            server.reloadTls();
            ctx.stderr(operatorLine(format, 'info', 'SIGHUP: new connections now get the reloaded TLS certificate.'));
          } catch (error) {
            ctx.stderr(operatorLine(format, 'error', `SIGHUP: kept the TLS certificate in use, because ${(error as Error).message}.`));
          }
        };
        if (tls) process.on('SIGHUP', reload);
        const received = await signal;
        ctx.stderr(operatorLine(format, 'info', `${received}: finishing requests in flight (at most ${SHUTDOWN_GRACE_MS / 1000} s), then stopping`));
        await closeWithin(server, ctx, format);
        process.off('SIGHUP', reload);
        return 0;
      } finally {
        clearInterval(sweeper);
      }
    },
    {
      secrets: true,
      indexInBackground: true,
      issuing: {
        scheduler: true,
        // In the log's format, like every other line of serve.
        onError: (error) => ctx.stderr(operatorLine(format, 'error', `proofdesk issuing: ${(error as Error)?.message ?? String(error)}`)),
        onNotice: (line) => ctx.stderr(operatorLine(format, 'warn', `proofdesk: ${line}`)),
      },
    },
  );
}

/** Where the served engine's data is, for the start-up line: the data directory, or the database without its password. */
function servedData(dataDir: string): string {
  const url = process.env.PROOFDESK_DATABASE_URL;
  return url ? `the database ${describeDatabaseUrl(url)} (data directory ${dataDir})` : dataDir;
}
