/**
 * Three `serve` nodes on one PostgreSQL database, as an operator runs them: each a real child
 * process of the bundled CLI (its own process group, so it can be killed whole), with its own
 * data directory (its own machine) or all with one, behind a round-robin balancer on loopback.
 * The Partners are added where the operator works (an engine of this process on the same
 * database, with the encrypted-file secret store under PROOFDESK_PASSPHRASE), and the operator
 * copies the resulting `secrets.enc.json` to every node's data directory, as docs/deploying.md
 * tells them to.
 */
import { copyFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Engine, REALM, type EngineConfig } from '../../main/engine/index.js';
import { RemoteService, type RemoteServiceOptions } from '../../main/remote/index.js';
import { PASSPHRASE_ENV, openSecretStore } from '../../main/secrets/index.js';
import { startCliChild, type CliRun } from '../cli/cli-child.js';
import { makeTempDir, waitFor, writeEngines } from '../support/issuing-fixture.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres-database.js';
import { startRoundRobinProxy, type RoundRobinProxy } from './round-robin-proxy.js';

export const CLUSTER_PASSPHRASE = 'three machines, one passphrase';
const SECRETS_FILE = 'secrets.enc.json';

export interface ClusterNode {
  /** PROOFDESK_NODE_NAME, as the issuing lease names it. */
  name: string;
  dataDir: string;
  run: CliRun;
  /** http://127.0.0.1:PORT of this node alone. */
  origin: string;
  /** SIGKILL to the node's whole process group. */
  kill(): void;
  /** Whether the process is still running. */
  alive(): boolean;
}

export interface ClusterPartner {
  partnerId: string;
  clientId: string;
  clientSecret: string;
  /** The Partner's chain address (funded by the tests that issue on a chain of their own). */
  address: string;
}

export interface Cluster {
  database: TestDatabase;
  nodes: ClusterNode[];
  balancer: RoundRobinProxy;
  /** The engine the operator adds Partners and sets limits with (no scheduler, no server). */
  operator: Engine;
  /** Adds a Partner and copies the secrets file to every node, as the operator would. */
  addPartner(name: string, issuingIntervalSeconds?: number): Promise<ClusterPartner>;
  /** A RemoteService for the Partner through the balancer (the caller closes it). */
  remote(partner: ClusterPartner, options?: Partial<RemoteServiceOptions>): RemoteService;
  close(): Promise<void>;
}

export interface ClusterOptions {
  /** The engines every node configures besides `local` (engines.json). */
  engines: EngineConfig[];
  environment?: 'demo' | 'live';
  /** One data directory for all three nodes (and the operator) rather than one each. */
  sharedDataDir?: boolean;
  /** Extra environment for every node (a fault point). */
  env?: NodeJS.ProcessEnv;
}

function startNode(name: string, dataDir: string, databaseUrl: string, balancerPort: number, options: ClusterOptions): ClusterNode {
  const argv = ['serve', '--port', '0', '--log', 'json', '--environment', options.environment ?? 'demo', '--allowed-host', `127.0.0.1:${balancerPort}`, '--data', dataDir];
  const env = { ...process.env, ...options.env, [PASSPHRASE_ENV]: CLUSTER_PASSPHRASE, PROOFDESK_DATABASE_URL: databaseUrl, PROOFDESK_NODE_NAME: name };
  const run = startCliChild(argv, env, { detached: true });
  const alive = () => run.child.exitCode === null && run.child.signalCode === null;
  return {
    name,
    dataDir,
    run,
    origin: '',
    alive,
    kill() {
      if (!alive()) return;
      try {
        process.kill(-run.child.pid!, 'SIGKILL');
      } catch {
        run.child.kill('SIGKILL');
      }
    },
  };
}

/** Waits for a node to print where it listens; fails with its stderr when it exits first. */
async function listening(node: ClusterNode): Promise<string> {
  const line = await waitFor(
    `${node.name} to listen`,
    () => {
      const printed = node.run.stdout().split('\n').find((l) => l.includes('auth_url'));
      if (printed) return printed;
      if (!node.alive()) throw new Error(`${node.name} exited: ${node.run.stderr()}`);
      return undefined;
    },
    60_000,
    50,
  );
  return (JSON.parse(line) as { auth_url: string }).auth_url;
}

/** Copies a file so that a reader never sees half of it (copy beside it, then rename). */
function copyWhole(from: string, to: string): void {
  copyFileSync(from, `${to}.copying`);
  renameSync(`${to}.copying`, to);
}

/** Starts the database, the balancer, the operator's engine and three nodes. */
export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const database = createTestDatabase();
  const operatorDir = makeTempDir('proofdesk-operator-');
  const nodeDirs = [0, 1, 2].map((i) => (options.sharedDataDir ? operatorDir : makeTempDir(`proofdesk-node-${i + 1}-`)));
  const removeDirs = () => {
    for (const dir of new Set([operatorDir, ...nodeDirs])) rmSync(dir, { recursive: true, force: true });
  };
  let balancer: RoundRobinProxy;
  let operator: Engine;
  try {
    for (const dir of new Set([operatorDir, ...nodeDirs])) writeEngines(dir, options.engines);
    const secrets = await openSecretStore({ dataDir: operatorDir, env: { [PASSPHRASE_ENV]: CLUSTER_PASSPHRASE } });
    operator = Engine.open({ dataDir: operatorDir, databaseUrl: database.url, secrets, sweepIntervalMs: false });
    balancer = await startRoundRobinProxy().catch(async (error: unknown) => {
      await operator.close();
      throw error;
    });
  } catch (error) {
    database.drop();
    removeDirs();
    throw error;
  }
  const copySecrets = () => {
    for (const dir of nodeDirs) if (dir !== operatorDir) copyWhole(join(operatorDir, SECRETS_FILE), join(dir, SECRETS_FILE));
  };
  // The file exists once the store is open: the nodes must start with the operator's (its salt), not make their own.
  copySecrets();
  const nodes = nodeDirs.map((dir, i) => startNode(`node-${i + 1}`, dir, database.url, balancer.port, options));
  let closing: Promise<void> | undefined;
  // Every step runs even when one before it fails: no node outlives the file.
  const close = () =>
    (closing ??= (async () => {
      for (const node of nodes) node.kill();
      await Promise.all(nodes.map((n) => n.run.ended));
      try {
        await balancer.close();
        await operator.close();
      } finally {
        database.drop();
        removeDirs();
      }
    })());
  try {
    for (const [i, origin] of (await Promise.all(nodes.map(listening))).entries()) nodes[i]!.origin = origin;
  } catch (error) {
    await close();
    throw error;
  }
  balancer.setTargets(nodes.map((n) => n.origin));
  return {
    database,
    nodes,
    balancer,
    operator,
    async addPartner(name, issuingIntervalSeconds = 3600) {
      const created = await operator.addPartner({ name, issuingIntervalSeconds });
      copySecrets();
      return { partnerId: created.partner_id, clientId: created.client_id, clientSecret: created.client_secret, address: created.address };
    },
    remote(partner, overrides = {}) {
      return new RemoteService({ baseUrl: `${balancer.origin}/api`, authUrl: balancer.origin, realm: REALM, clientId: partner.clientId, clientSecret: partner.clientSecret, ...overrides });
    },
    close,
  };
}
