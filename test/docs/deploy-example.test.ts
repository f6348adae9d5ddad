/**
 * The three-node example of docs/deploying.md runs as written: the systemd template unit and the
 * compose file of deploy/ are read (a small unit parser, the `yaml` package) and exactly the
 * commands and environments they give the three nodes are started here, on the test's
 * PostgreSQL database. Only what names this machine is replaced: paths (/etc/proofdesk, the
 * state and credentials directories, the installed CLI: the run's bundle of it, the volumes
 * and /run/secrets), the address and ports (127.0.0.1 and free ones) and the database URL. No
 * service manager, container runtime or Caddy runs here (systemd-analyze only checks the unit's
 * settings): the proxy's round robin is a stand-in on loopback, built from the Caddyfile's
 * upstreams. Then: every node is ready, one issues, a credential
 * created through node 1 is listed through node 3, and the leader stopped with SIGTERM exits 0
 * while another takes over issuing.
 */
import { execFile, spawn } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Credential, Page } from '../../common/wire-types.js';
import { isLoopbackHost } from '../../main/api/index.js';
import { SHUTDOWN_GRACE_MS } from '../../main/cli/commands/serve.js';
import { findFreePort } from '../../main/chain/free-port.js';
import { SECRETS_FILE } from '../../main/secrets/index.js';
import { expectResult, requestToken, send, type Json } from '../api/api-fixture.js';
import { endedWithin, REPO, startCliChild, type CliRun } from '../cli/cli-child.js';
import { removeTempDirs, tempDir, waitFor } from '../intake/helpers.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres-database.js';
import {
  durationMs,
  expandSpecifiers,
  parseCaddyReverseProxy,
  parseCompose,
  parseDockerfile,
  parseEnvFile,
  parseEnvironmentSetting,
  parseUnit,
  splitCommand,
  unitValue,
  unitValues,
  type ComposeService,
} from './deploy-files.js';

const DEPLOY = join(REPO, 'deploy');
const read = (name: string) => readFileSync(join(DEPLOY, name), 'utf8');
const PASSPHRASE = 'the passphrase of the example deployment';
/** Where the docs install Proofdesk: the bundled CLI, the package's `proofdesk` bin. */
const INSTALLED_CLI = '/opt/proofdesk/out/cli/index.js';
const NODES = ['node1', 'node2', 'node3'];

/** The start command of a node: node running the installed CLI, and the CLI's arguments. */
function cliArguments(argv: string[]): string[] {
  expect(basename(argv[0]!), `${argv.join(' ')} runs node`).toBe('node');
  expect(argv[1], 'the installed CLI (out/cli/index.js, the bundle `npm run build` makes)').toBe(INSTALLED_CLI);
  return argv.slice(2);
}

/** A started node: its process, and the address it printed once listening. */
interface RunningNode {
  name: string;
  run: CliRun;
  origin: string;
}

/** Starts the CLI with exactly `env` in `cwd` and waits for serve's one line on stdout. */
async function startNode(name: string, args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<RunningNode> {
  const run = startCliChild(args, env, { cwd });
  const line = await waitFor(
    `${name} to listen`,
    () => run.stdout().split('\n').find((l) => l.includes('base_url')) ?? (run.child.exitCode !== null ? `exit ${run.child.exitCode}: ${run.stderr()}` : undefined),
    90_000,
  );
  expect(line, `${name} started`).toContain('base_url');
  return { name, run, origin: JSON.parse(line).auth_url as string };
}

async function stopAll(nodes: RunningNode[]): Promise<void> {
  for (const node of nodes) if (node.run.child.exitCode === null && node.run.child.signalCode === null) node.run.child.kill('SIGTERM');
  await Promise.all(nodes.map((node) => endedWithin(node.run, 45_000)));
}

/**
 * /readyz of every node, once all answer 200 and name one leader (a node that just started, or
 * one whose leader just stopped, is ready in `standby` until a scheduler tick takes the lease).
 */
async function allReady(nodes: RunningNode[]): Promise<Json[]> {
  return waitFor('every node to answer /readyz 200 with a leader', async () => {
    const answers = await Promise.all(nodes.map((node) => send<Json>('GET', `${node.origin}/readyz`)));
    return answers.every((a) => a.status === 200 && a.body.result.leader !== null) ? answers.map((a) => a.body.result) : undefined;
  }, 30_000);
}

/** The checks both set-ups pass: ready, one leader, one database behind every node. */
async function expectOneService(nodes: RunningNode[], partner: { client_id: string; client_secret: string }): Promise<void> {
  const ready = await allReady(nodes);
  for (const result of ready) expect(result).toMatchObject({ status: 'ready', database: 'ok', migrations: 'current' });
  expect(ready.filter((r) => r.scheduler === 'here'), 'exactly one node issues').toHaveLength(1);
  expect(ready.filter((r) => r.scheduler === 'elsewhere')).toHaveLength(2);

  const token = (await requestToken(nodes[0]!.origin, partner.client_id, partner.client_secret)).body.access_token as string;
  expect(token).toBeTruthy();
  const created = expectResult(await send('POST', `${nodes[0]!.origin}/api/credentials`, { token, json: { title: 'Deployed through node 1', metadata: { n: 1 } } }), 201);
  const listed = expectResult<Page<Credential>>(await send('GET', `${nodes[2]!.origin}/api/credentials`, { token }), 200);
  expect(listed.items.map((c) => c.uid)).toContain(created.uid);
}

/** The leader, stopped with SIGTERM within the stop timeout, exits 0, and another node issues. */
async function expectFailover(nodes: RunningNode[], stopTimeoutMs: number): Promise<RunningNode[]> {
  const ready = await allReady(nodes);
  const leader = nodes[ready.findIndex((r) => r.scheduler === 'here')]!;
  leader.run.child.kill('SIGTERM');
  const ended = await endedWithin(leader.run, stopTimeoutMs);
  expect({ code: ended.code, signal: ended.signal }, ended.stderr).toEqual({ code: 0, signal: null });
  const rest = nodes.filter((n) => n !== leader);
  // While the lease changes hands the others stay ready (`standby`), then one takes it.
  const after = await waitFor('another node to take over issuing', async () => {
    const answers = await Promise.all(rest.map((node) => send<Json>('GET', `${node.origin}/readyz`)));
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    return answers.every((a) => a.body.result.leader !== null) ? answers.map((a) => a.body.result.scheduler as string) : undefined;
  }, 15_000);
  expect(after.sort()).toEqual(['elsewhere', 'here']);
  return rest;
}

describe('deploy/proofdesk@.service: three instances on one PostgreSQL database', () => {
  const unit = parseUnit(read('proofdesk@.service'));
  let database: TestDatabase;
  let root: string;
  let etc: string;
  const nodes: RunningNode[] = [];
  let partner: { client_id: string; client_secret: string };

  /** What the unit's instance `name` runs: its command line, environment and working directory. */
  function instance(name: string) {
    const specifiers = { instance: name, prefix: 'proofdesk', stateRoot: join(root, 'var/lib'), credentials: join(root, 'run/credentials', `proofdesk@${name}.service`) };
    const expand = (value: string) => expandSpecifiers(value, specifiers);
    const onThisMachine = (path: string) => {
      if (!path.startsWith('/etc/proofdesk/')) throw new Error(`The unit names ${path}, outside /etc/proofdesk: teach the test where that is here`);
      return join(etc, path.slice('/etc/proofdesk/'.length));
    };
    // systemd makes the state directory and copies each credential before the command starts.
    const stateDirectories = unitValues(unit, 'Service', 'StateDirectory').map((d) => join(specifiers.stateRoot, expand(d)));
    for (const dir of stateDirectories) mkdirSync(dir, { recursive: true, mode: 0o700 });
    mkdirSync(specifiers.credentials, { recursive: true, mode: 0o700 });
    for (const setting of unitValues(unit, 'Service', 'LoadCredential')) {
      const [id, path] = expand(setting).split(':') as [string, string];
      const target = join(specifiers.credentials, id);
      rmSync(target, { force: true });
      copyFileSync(onThisMachine(path), target);
      chmodSync(target, 0o400);
    }
    const env: Record<string, string> = {};
    for (const [key, value] of unit.get('Service')!) {
      if (key === 'EnvironmentFile') {
        const optional = value.startsWith('-');
        const file = onThisMachine(expand(optional ? value.slice(1) : value));
        let text: string | undefined;
        try {
          text = readFileSync(file, 'utf8');
        } catch (error) {
          if (!optional) throw error;
        }
        if (text !== undefined) Object.assign(env, parseEnvFile(text));
      }
      if (key === 'Environment') Object.assign(env, parseEnvironmentSetting(expand(value)));
    }
    const argv = splitCommand(expand(unitValue(unit, 'Service', 'ExecStart')), env);
    const processEnv: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: join(root, 'home'),
      ...env,
      STATE_DIRECTORY: stateDirectories.join(':'),
      CREDENTIALS_DIRECTORY: specifiers.credentials,
    };
    return { argv, env: processEnv, stateDirectories, cwd: expand(unitValue(unit, 'Service', 'WorkingDirectory')) };
  }

  beforeAll(async () => {
    database = createTestDatabase();
    root = tempDir('proofdesk-deploy-systemd-');
    etc = join(root, 'etc/proofdesk');
    mkdirSync(join(root, 'home'), { recursive: true });
    mkdirSync(etc, { recursive: true, mode: 0o700 });
    // /etc/proofdesk/proofdesk.env from the example, with this machine's database.
    const example = read('proofdesk.env.example').replace(/^(\w+)=postgres:\/\/.*$/m, `$1=${database.url}`);
    expect(example, 'the example names a postgres:// database').toContain(database.url);
    writeFileSync(join(etc, 'proofdesk.env'), example, { mode: 0o600 });
    writeFileSync(join(etc, 'passphrase'), `${PASSPHRASE}\n`, { mode: 0o600 });
    // The three nodes share this machine: each its own address and port, in its own file.
    for (const name of NODES) writeFileSync(join(etc, `${name}.env`), `PROOFDESK_HOST=127.0.0.1\nPROOFDESK_PORT=${await findFreePort()}\n`, { mode: 0o600 });

    // The Partner, once, into node 1's data directory; its keys file is then copied to the others.
    const first = instance('node1');
    const added = await endedWithin(
      startCliChild(['partner', 'add', '--name', 'Example University', '--data', first.stateDirectories[0]!], {
        PATH: process.env.PATH,
        HOME: join(root, 'home'),
        PROOFDESK_DATABASE_URL: parseEnvFile(readFileSync(join(etc, 'proofdesk.env'), 'utf8')).PROOFDESK_DATABASE_URL,
        PROOFDESK_PASSPHRASE_FILE: join(etc, 'passphrase'),
      }),
      60_000,
    );
    expect(added.code, added.stderr).toBe(0);
    partner = JSON.parse(added.stdout);
    const instances = NODES.map(instance);
    for (const other of instances.slice(1)) copyFileSync(join(first.stateDirectories[0]!, SECRETS_FILE), join(other.stateDirectories[0]!, SECRETS_FILE));

    for (const [i, name] of NODES.entries()) {
      const { argv, env, cwd } = instances[i]!;
      nodes.push(await startNode(name, cliArguments(argv), env, cwd));
    }
  }, 300_000);

  afterAll(async () => {
    await stopAll(nodes);
    database?.drop();
    removeTempDirs();
  }, 120_000);

  it('gives each instance its own data directory, the passphrase as a credential file, a stop timeout above serve’s grace and a restart', () => {
    const one = instance('node1');
    expect(one.stateDirectories).toEqual([join(root, 'var/lib/proofdesk/node1')]);
    expect(one.argv.slice(one.argv.indexOf('--data'), one.argv.indexOf('--data') + 2)).toEqual(['--data', one.stateDirectories[0]]);
    expect(one.env.PROOFDESK_NODE_NAME).toBe('node1');
    expect(readFileSync(one.env.PROOFDESK_PASSPHRASE_FILE!, 'utf8').trim()).toBe(PASSPHRASE);
    expect(one.env).not.toHaveProperty('PROOFDESK_PASSPHRASE');
    // Here the nodes listen on loopback; with the example's own address, plain HTTP beyond loopback must be said.
    const exampleHost = parseEnvFile(read('proofdesk.env.example')).PROOFDESK_HOST!;
    expect(one.argv[one.argv.indexOf('--host') + 1]).toBe('127.0.0.1');
    if (!isLoopbackHost(exampleHost)) expect(one.argv.some((a) => a === '--insecure-http' || a === '--tls-cert'), `serve refuses plain HTTP on ${exampleHost}`).toBe(true);
    expect(unitValue(unit, 'Service', 'KillSignal')).toBe('SIGTERM');
    expect(durationMs(unitValue(unit, 'Service', 'TimeoutStopSec'))).toBeGreaterThan(SHUTDOWN_GRACE_MS);
    expect(unitValue(unit, 'Service', 'Restart')).toBe('always');
    for (const key of ['NoNewPrivileges', 'ProtectSystem', 'PrivateTmp', 'ProtectHome']) expect(unitValue(unit, 'Service', key), key).toMatch(/^(yes|strict)$/);
  });

  it('passes systemd-analyze verify: every setting is one this systemd knows, with a value it accepts', async () => {
    const dir = join(root, 'systemd');
    mkdirSync(dir, { recursive: true });
    // The unit's node is this machine's node.
    writeFileSync(join(dir, 'proofdesk@.service'), read('proofdesk@.service').replace(/^ExecStart=\S+/m, `ExecStart=${process.execPath}`));
    const result = await new Promise<{ code: number | null; stderr: string; error?: Error }>((resolve) => {
      execFile('systemd-analyze', ['verify', '--man=no', join(dir, 'proofdesk@node1.service')], (error, _stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stderr, error: error ?? undefined }),
      );
    });
    expect(result.error?.message ?? '', 'systemd-analyze runs (Debian: apt-get install systemd)').not.toMatch(/ENOENT/);
    expect(result).toMatchObject({ code: 0, stderr: '' });
  });

  it('starts three nodes that are ready, with one issuing, serving one database (a credential made on node 1 is listed on node 3)', async () => {
    await expectOneService(nodes, partner);
  });

  it('SIGTERM of the issuing node: it exits 0 within TimeoutStopSec and another node takes over issuing', async () => {
    await expectFailover(nodes, durationMs(unitValue(unit, 'Service', 'TimeoutStopSec')));
  });
});

/**
 * A stand-in for Caddy's round robin: loopback, the upstreams in turn, the next one when a node
 * refuses the connection, and the public name as the Host header (what clients of the site send,
 * and Caddy passes on).
 */
function standInRoundRobin(upstreams: string[], retries: number, publicHost: string): { server: Server; served: string[] } {
  let next = 0;
  const served: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const attempt = (left: number) => {
        const upstream = upstreams[next++ % upstreams.length]!;
        const url = new URL(req.url!, upstream);
        const forward = httpRequest(url, { method: req.method, headers: { ...req.headers, host: publicHost } }, (answer) => {
          served.push(upstream);
          res.writeHead(answer.statusCode!, answer.headers);
          answer.pipe(res);
        });
        forward.on('error', () => (left > 0 ? attempt(left - 1) : res.writeHead(502).end()));
        forward.end(body);
      };
      attempt(retries);
    });
  });
  return { server, served };
}

describe('deploy/compose.yaml: three nodes, the database, and the proxy (a "stand-in" round robin for Caddy)', () => {
  let database: TestDatabase;
  let root: string;
  const nodes: RunningNode[] = [];
  let partner: { client_id: string; client_secret: string };
  let proxy: { server: Server; served: string[] };
  let proxyOrigin: string;
  const compose = parseCompose(read('compose.yaml'), { PROOFDESK_DB_PASSWORD: 'example-password' });
  const image = parseDockerfile(read('Dockerfile'));
  const ports = new Map<string, number>();

  /** The node services: those built from the Dockerfile. */
  const nodeServices = () => Object.entries(compose.services).filter(([, s]) => s.build !== undefined);

  /** The container port a service's serve listens on (its --port). */
  const containerPort = (service: ComposeService) => service.command![service.command!.indexOf('--port') + 1]!;

  /** What `docker compose` runs for `service` (with `command` instead of its own when given), here. */
  function container(name: string, command?: string[]) {
    const service = compose.services[name]!;
    const volumes = new Map<string, string>();
    for (const volume of service.volumes ?? []) {
      const [source, target] = volume.split(':') as [string, string];
      expect(compose.volumes, `${name}'s volume ${source} is a named volume`).toHaveProperty(source);
      volumes.set(target, join(root, 'volumes', source));
    }
    for (const secret of service.secrets ?? []) volumes.set(`/run/secrets/${secret}`, join(root, 'secrets', secret));
    const here = (value: string) => {
      for (const [target, source] of volumes) if (value === target || value.startsWith(`${target}/`)) return source + value.slice(target.length);
      return value;
    };
    const args = (command ?? service.command!).map(here);
    const port = ports.get(name);
    if (!command && port !== undefined) {
      args[args.indexOf('--host') + 1] = '127.0.0.1';
      args[args.indexOf('--port') + 1] = String(port);
    }
    const env: Record<string, string> = {};
    for (const [key, value] of Object.entries({ ...image.env, ...service.environment })) env[key] = here(value.startsWith('postgres://') ? database.url : String(value));
    return { argv: [...image.entrypoint, ...args], env: { PATH: process.env.PATH, HOME: join(root, 'home'), ...env } };
  }

  beforeAll(async () => {
    database = createTestDatabase();
    root = tempDir('proofdesk-deploy-compose-');
    mkdirSync(join(root, 'home'), { recursive: true });
    mkdirSync(join(root, 'secrets'), { recursive: true });
    for (const volume of Object.keys(compose.volumes ?? {})) mkdirSync(join(root, 'volumes', volume), { recursive: true, mode: 0o700 });
    for (const secret of Object.keys(compose.secrets ?? {})) writeFileSync(join(root, 'secrets', secret), PASSPHRASE, { mode: 0o600 });
    for (const [name] of nodeServices()) ports.set(name, await findFreePort());

    // docker compose run --rm node1 partner add --name "Example University"
    const add = container('node1', ['partner', 'add', '--name', 'Example University']);
    const added = await endedWithin(startCliChild(cliArguments(add.argv), add.env), 60_000);
    expect(added.code, added.stderr).toBe(0);
    partner = JSON.parse(added.stdout);

    for (const [name] of nodeServices()) {
      const { argv, env } = container(name);
      nodes.push(await startNode(name, cliArguments(argv), env, join(root, 'home')));
    }
    const caddy = parseCaddyReverseProxy(read('Caddyfile'));
    const upstreams = caddy.upstreams.map((upstream) => {
      const [host, port] = upstream.split(':') as [string, string];
      expect(compose.services, `the Caddyfile's upstream ${upstream} is a service`).toHaveProperty(host);
      expect(port, `${upstream} is the port ${host} listens on`).toBe(containerPort(compose.services[host]!));
      return `http://127.0.0.1:${ports.get(host)}`;
    });
    // The site's address, {$PROOFDESK_PUBLIC_HOST:localhost}, with the proxy's environment.
    const site = /^\{\$(\w+):([^}]+)\}\s*\{/m.exec(read('Caddyfile'));
    expect(site, 'the Caddyfile names its site by PROOFDESK_PUBLIC_HOST').not.toBeNull();
    const publicHost = compose.services.proxy!.environment?.[site![1]!] || site![2]!;
    proxy = standInRoundRobin(upstreams, Number(caddy.options.get('lb_retries') ?? 0), publicHost);
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    proxyOrigin = `http://127.0.0.1:${(proxy.server.address() as { port: number }).port}`;
  }, 300_000);

  afterAll(async () => {
    proxy?.server.close();
    await stopAll(nodes);
    database?.drop();
    removeTempDirs();
  }, 120_000);

  it('names three node services on the postgres:15 service, each with its own node name, the passphrase as a secret file, and a stop grace above serve’s', () => {
    expect(nodeServices().map(([name]) => name)).toEqual(NODES);
    const [dbName, db] = Object.entries(compose.services).find(([, s]) => s.image?.startsWith('postgres:'))!;
    expect(db.image).toBe('postgres:15');
    const url = new URL(compose.services.node1!.environment!.PROOFDESK_DATABASE_URL!);
    expect({ host: url.hostname, user: url.username, password: url.password, database: url.pathname.slice(1) }).toEqual({
      host: dbName,
      user: db.environment!.POSTGRES_USER,
      password: db.environment!.POSTGRES_PASSWORD,
      database: db.environment!.POSTGRES_DB,
    });
    for (const [name, service] of nodeServices()) {
      const host = service.command![service.command!.indexOf('--host') + 1]!;
      if (!isLoopbackHost(host)) expect(service.command!.some((a) => a === '--insecure-http' || a === '--tls-cert'), `serve refuses plain HTTP on ${host}`).toBe(true);
      expect(service.environment!.PROOFDESK_NODE_NAME).toBe(name);
      expect(service.environment!.PROOFDESK_PASSPHRASE_FILE).toBe('/run/secrets/passphrase');
      expect(service.secrets).toEqual(['passphrase']);
      expect(service.depends_on).toMatchObject({ [dbName]: { condition: 'service_healthy' } });
      expect(service.stop_signal).toBe('SIGTERM');
      expect(durationMs(service.stop_grace_period!)).toBeGreaterThan(SHUTDOWN_GRACE_MS);
    }
    expect(Object.fromEntries(parseCaddyReverseProxy(read('Caddyfile')).options)).toMatchObject({ lb_policy: 'round_robin', health_uri: '/readyz' });
  });

  it('starts three nodes whose healthcheck passes, with one issuing, serving one database (a credential made on node 1 is listed on node 3)', async () => {
    await allReady(nodes);
    for (const [name, service] of nodeServices()) {
      // The healthcheck's command as the container runs it, against this node's port.
      const [form, program, ...args] = service.healthcheck!.test;
      expect(form).toBe('CMD');
      expect(program).toBe('node');
      const here = args.map((a) => a.replace(`127.0.0.1:${containerPort(service)}`, `127.0.0.1:${ports.get(name)}`));
      const code = await new Promise<number | null>((resolve) => spawn(process.execPath, here, { stdio: 'ignore' }).on('exit', resolve));
      expect(code, `${name}'s healthcheck`).toBe(0);
    }
    await expectOneService(nodes, partner);
  });

  it('answers through the round robin from every node in turn, with the same credentials', async () => {
    const token = (await requestToken(proxyOrigin, partner.client_id, partner.client_secret)).body.access_token as string;
    const created = expectResult(await send('POST', `${proxyOrigin}/api/credentials`, { token, json: { title: 'Through the proxy', metadata: { n: 2 } } }), 201);
    proxy.served.length = 0;
    for (let i = 0; i < 3; i++) expect(expectResult<Page<Credential>>(await send('GET', `${proxyOrigin}/api/credentials`, { token }), 200).items.map((c) => c.uid)).toContain(created.uid);
    expect(new Set(proxy.served).size).toBe(3);
  });

  it('SIGTERM of the issuing node: it exits 0 within stop_grace_period, another node takes over issuing, and the proxy still answers', async () => {
    const service = compose.services.node1!;
    const rest = await expectFailover(nodes, durationMs(service.stop_grace_period!));
    expect(rest).toHaveLength(2);
    const token = (await requestToken(proxyOrigin, partner.client_id, partner.client_secret)).body.access_token as string;
    for (let i = 0; i < 3; i++) expectResult(await send('GET', `${proxyOrigin}/api/credentials`, { token }), 200);
  });
});
