/**
 * The IPC slice of Settings and the first run: the Partner (name, issuing interval, client id, a
 * new client secret shown once), the keys (where they are kept, the public key, the chain
 * account on each engine with its balance, backup and restore), and the first run's setup.
 */
import { expectArgCount, expectInteger, expectObject, expectOneOf, expectString, noArgs, type IpcValidators } from './slice.js';

/** One sentence on what a lost key means; the first run and Settings › Keys both say it. */
export const LOST_KEY_SENTENCE =
  'If these keys are lost (a reset keychain, a lost laptop) and there is no backup, nobody can issue or revoke as this Partner again, though proofs already issued stay valid.';

/** The active Partner as Settings shows it. */
export interface PartnerSettings {
  id: string;
  name: string;
  client_id: string;
  issuing_interval_seconds: number;
  created_date: string;
  /** The Partner's chain account; null until its keys are made. */
  chain_address: string | null;
}

/** What the first run and Settings need to know before anything else. */
export interface SettingsOverview {
  partner: PartnerSettings | null;
  /** Where keys are kept; null when no store could be opened. */
  keyStore: 'keychain' | 'encrypted-file' | null;
  /** Why keys cannot be made or used here, and how to fix it; null when they can. */
  keyStoreProblem: string | null;
  /** `remote`: Partner and keys belong to the remote service; Settings offers little. */
  mode: 'embedded' | 'remote';
  /**
   * No keychain, and the keys are (or will be) in the encrypted file of the data directory:
   * `unlock` asks for its passphrase, `create` for a new one typed twice. Null otherwise.
   */
  keyLock: 'unlock' | 'create' | null;
}

/** Shortest passphrase for a new encrypted keys file. */
export const MIN_KEYS_PASSPHRASE = 10;

/** The first run's answers. */
export interface FirstRunInput {
  name: string;
  /** A duration as people type it: `30s`, `5m`, `24h`, `7d`. */
  issuingInterval: string;
}

/** Client credentials, the secret shown once and never again. */
export interface NewClientSecret {
  client_id: string;
  client_secret: string;
}

/** The chain account of the Partner on one engine. */
export interface EngineAccount {
  engine: string;
  chain_id: number | null;
  environment: 'live' | 'demo';
  /** Balance in ether as a decimal text, or null when the chain did not answer. */
  balance: string | null;
  /** What to do about the balance (fund it, or why it is not known). */
  hint: string;
}

/** Settings › Keys. */
export interface KeysInfo {
  keyStore: 'keychain' | 'encrypted-file' | null;
  address: string | null;
  signingPublicKey: string | null;
  accounts: EngineAccount[];
  /** The last backup main wrote to a file (the desktop app's save dialog): when (ISO 8601) and where; null when none is known. */
  lastBackup: { at: string; path: string } | null;
}

// Settings › Remote connections.

/** A remote instance of the service: where it is and who we are there. */
export interface RemoteConnectionInput {
  /** The service's base address with its API prefix, e.g. https://issuer.example/api. */
  base_url: string;
  /** The OAuth server's address; default the base URL's origin. */
  auth_url?: string;
  client_id: string;
  /** Kept in the key store only; never written to a file nor sent back. */
  client_secret: string;
}

/** What remote mode does not offer, and why: main refuses with these, the views say them. */
export const REMOTE_LIMITS = {
  search: "Search needs this machine's engine: the remote service's API has no word search. Filter by tags or upload date instead.",
  state: "The state on each engine is not in the remote service's credential listing, so the table cannot show or filter by it; a credential's detail shows its certificates.",
  watch: "Watch folders issue through this machine's engine, so they are off while a remote service is in use; run `proofdesk watch` against the remote service on the command line instead.",
  tags: 'The remote service does not list its tags, so the tag filter has no suggestions; type the tags.',
} as const;

/** A saved connection as Settings shows it (no secret). */
export interface RemoteConnection {
  base_url: string;
  auth_url: string;
  client_id: string;
  /** True while the app's views work over this connection (kept across restarts). */
  active?: boolean;
  /** Why the app could not use the connection when it started, if it could not. */
  problem?: string;
}

export interface SettingsRemoteIpc {
  'settings:remote': { args: []; result: RemoteConnection | null };
  /**
   * Makes every view work over the saved connection (its secret from the key store); kept in
   * remote.json, so the app starts on it again. Refused with a sentence, nothing changed, when
   * the service does not answer or refuses the client.
   */
  'settings:useRemote': { args: []; result: RemoteConnection };
  /** Back to this machine's engine; remembered too. */
  'settings:useEmbedded': { args: []; result: null };
  /** Gets a token and lists the engines; never throws for a service that does not answer. */
  'settings:testRemote': { args: [input: RemoteConnectionInput]; result: { ok: boolean; message: string } };
  /** Tests, then keeps the connection (DATA/remote.json, the secret in the key store). */
  'settings:saveRemote': { args: [input: RemoteConnectionInput]; result: RemoteConnection };
}

export interface SettingsIpc extends SettingsEnginesIpc, SettingsRemoteIpc {
  'settings:get': { args: []; result: SettingsOverview };
  /** Makes the first Partner with its keys, and makes it the active one. */
  'settings:firstRun': { args: [input: FirstRunInput]; result: { partner: PartnerSettings } & NewClientSecret };
  'settings:setInterval': { args: [interval: string]; result: PartnerSettings };
  /** Opens the encrypted keys file with its passphrase (kept in main's memory only). */
  'settings:unlockKeys': { args: [passphrase: string]; result: SettingsOverview };
  /** Makes the encrypted keys file under a new passphrase, typed twice. */
  'settings:createPassphrase': { args: [passphrase: string, again: string]; result: SettingsOverview };
  /** Replaces the active Partner's client secret; the old one stops working at once. */
  'settings:newSecret': { args: []; result: NewClientSecret };
  'settings:keys': { args: []; result: KeysInfo };
  /**
   * Asks where to save (the OS save dialog, in main) and writes an encrypted backup of the active
   * Partner's keys there; null when the admin cancels. Where main has no dialog (the browser
   * bridge) it refuses: use `settings:backupKeysFile`, which the page downloads.
   */
  'settings:backupKeys': { args: [passphrase: string]; result: { path: string; address: string } | null };
  /** The encrypted backup as a file's name and text, for the browser bridge's download. */
  'settings:backupKeysFile': { args: [passphrase: string]; result: { fileName: string; content: string; address: string } };
  /**
   * Asks for a backup file (the OS open dialog, in main), restores its Partner and makes it the
   * active one; null when the admin cancels. The browser bridge uses `settings:restoreKeysFile`.
   */
  'settings:restoreKeys': { args: [passphrase: string]; result: PartnerSettings | null };
  /** Restores from an uploaded backup file's text (the browser bridge). */
  'settings:restoreKeysFile': { args: [fileName: string, content: string, passphrase: string]; result: PartnerSettings };
}



// Settings › Engines.

/** An engine as Settings shows and adds it (the fields of DATA/engines.json). */
export interface EngineSettings {
  id: string;
  /** Absent for `local`, whose node the engine starts itself. */
  rpc_url?: string;
  chain_id: number | null;
  confirmations: number;
  environment: 'live' | 'demo';
  /** Explorer URL of a transaction, `{tx}` standing for its hash. */
  explorer_tx_url?: string;
  /** Explorer URL of an address, `{address}` standing for it. */
  explorer_address_url?: string;
}

/** What a connection test found. */
export interface EngineTestResult {
  ok: boolean;
  /** A sentence: the block it is at, or what is wrong and what to do. */
  message: string;
}

export interface SettingsEnginesIpc {
  'settings:engines': { args: []; result: EngineSettings[] };
  /** Adds an EVM chain to DATA/engines.json (and to the running engine). */
  'settings:addEngine': { args: [engine: EngineSettings]; result: EngineSettings[] };
  /** Asks the RPC URL for its chain id and block number; never throws for an unreachable node. */
  'settings:testEngine': { args: [rpcUrl: string, chainId: number]; result: EngineTestResult };
}

export const SETTINGS_ENGINES_IPC: IpcValidators<SettingsEnginesIpc> = {
  'settings:engines': noArgs('settings:engines'),
  'settings:addEngine': (args) => {
    expectArgCount('settings:addEngine', args, 1);
    const e = expectObject(args[0], 'engine');
    const optional = (v: unknown, name: string) => (v === undefined || v === null || v === '' ? undefined : expectString(v, name, 2000));
    return [
      {
        id: expectString(e.id, 'id', 64),
        rpc_url: expectString(e.rpc_url, 'rpc_url', 2000),
        chain_id: expectInteger(e.chain_id, 'chain_id', 1, Number.MAX_SAFE_INTEGER),
        confirmations: expectInteger(e.confirmations, 'confirmations', 1, 1000),
        environment: expectOneOf(e.environment, 'environment', ['live', 'demo'] as const),
        explorer_tx_url: optional(e.explorer_tx_url, 'explorer_tx_url'),
        explorer_address_url: optional(e.explorer_address_url, 'explorer_address_url'),
      },
    ];
  },
  'settings:testEngine': (args) => {
    expectArgCount('settings:testEngine', args, 2);
    return [expectString(args[0], 'rpcUrl', 2000), expectInteger(args[1], 'chainId', 1, Number.MAX_SAFE_INTEGER)];
  },
};

function remoteInput(channel: string, args: unknown[]): [RemoteConnectionInput] {
  expectArgCount(channel, args, 1);
  const r = expectObject(args[0], 'connection');
  const authUrl = r.auth_url === undefined || r.auth_url === null || r.auth_url === '' ? undefined : expectString(r.auth_url, 'auth_url', 2000);
  return [
    {
      base_url: expectString(r.base_url, 'base_url', 2000),
      ...(authUrl ? { auth_url: authUrl } : {}),
      client_id: expectString(r.client_id, 'client_id', 200),
      client_secret: expectString(r.client_secret, 'client_secret', 1000),
    },
  ];
}

export const SETTINGS_REMOTE_IPC: IpcValidators<SettingsRemoteIpc> = {
  'settings:remote': noArgs('settings:remote'),
  'settings:testRemote': (args) => remoteInput('settings:testRemote', args),
  'settings:saveRemote': (args) => remoteInput('settings:saveRemote', args),
  'settings:useRemote': noArgs('settings:useRemote'),
  'settings:useEmbedded': noArgs('settings:useEmbedded'),
};

export const SETTINGS_IPC: IpcValidators<SettingsIpc> = {
  ...SETTINGS_ENGINES_IPC,
  ...SETTINGS_REMOTE_IPC,
  'settings:get': noArgs('settings:get'),
  'settings:firstRun': (args) => {
    expectArgCount('settings:firstRun', args, 1);
    const input = expectObject(args[0], 'input');
    return [{ name: expectString(input.name, 'name', 200), issuingInterval: expectString(input.issuingInterval, 'issuingInterval', 20) }];
  },
  'settings:setInterval': (args) => {
    expectArgCount('settings:setInterval', args, 1);
    return [expectString(args[0], 'interval', 20)];
  },
  'settings:newSecret': noArgs('settings:newSecret'),
  'settings:unlockKeys': (args) => {
    expectArgCount('settings:unlockKeys', args, 1);
    return [expectString(args[0], 'passphrase', 1000)];
  },
  'settings:createPassphrase': (args) => {
    expectArgCount('settings:createPassphrase', args, 2);
    return [expectString(args[0], 'passphrase', 1000), expectString(args[1], 'again', 1000)];
  },
  'settings:keys': noArgs('settings:keys'),
  'settings:backupKeys': (args) => {
    expectArgCount('settings:backupKeys', args, 1);
    return [expectString(args[0], 'passphrase', 1000)];
  },
  'settings:backupKeysFile': (args) => {
    expectArgCount('settings:backupKeysFile', args, 1);
    return [expectString(args[0], 'passphrase', 1000)];
  },
  'settings:restoreKeys': (args) => {
    expectArgCount('settings:restoreKeys', args, 1);
    return [expectString(args[0], 'passphrase', 1000)];
  },
  'settings:restoreKeysFile': (args) => {
    expectArgCount('settings:restoreKeysFile', args, 3);
    return [expectString(args[0], 'fileName', 1000), expectString(args[1], 'content', 1024 * 1024), expectString(args[2], 'passphrase', 1000)];
  },
};
