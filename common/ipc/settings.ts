/**
 * The IPC slice of Settings and the first run: the Partner (name, issuing interval, client id, a
 * new client secret shown once), the keys (where they are kept, the public key, the chain
 * account on each engine with its balance, backup and restore), and the first run's setup.
 */
import { Type, type Static } from '@sinclair/typebox';
import { OneOf } from '../schemas/primitives.js';
import { argsOf } from './slice.js';

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

/** A duration as people type it: `30s`, `5m`, `24h`, `7d`. */
const Interval = Type.String({ minLength: 1, maxLength: 20 });
/** The first run's answers. */
const FirstRunInputSchema = Type.Object({ name: Type.String({ minLength: 1, maxLength: 200 }), issuingInterval: Interval });
export type FirstRunInput = Static<typeof FirstRunInputSchema>;

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

/** A remote instance of the service: where it is and who we are there (a blank auth URL made absent). */
export type RemoteConnectionInput = Omit<Static<typeof RemoteConnectionSchema>, 'auth_url'> & { auth_url?: string };

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

const Url = Type.String({ minLength: 1, maxLength: 2000 });
/** Left blank in a form: absent. */
const Blank = Type.Union([Type.Literal(''), Type.Null()]);
const OptionalUrl = Type.Optional(Type.Union([Url, Blank]));
const ChainId = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });
const Passphrase = Type.String({ minLength: 1, maxLength: 1000 });

const NewEngineSchema = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 64 }),
  rpc_url: Url,
  chain_id: ChainId,
  confirmations: Type.Integer({ minimum: 1, maximum: 1000 }),
  environment: OneOf(['live', 'demo'] as const),
  explorer_tx_url: OptionalUrl,
  explorer_address_url: OptionalUrl,
});

const RemoteConnectionSchema = Type.Object({
  /** The service's base address with its API prefix, e.g. https://issuer.example/api. */
  base_url: Url,
  /** The OAuth server's address; default the base URL's origin. */
  auth_url: OptionalUrl,
  client_id: Type.String({ minLength: 1, maxLength: 200 }),
  /** Kept in the key store only; never written to a file nor sent back. */
  client_secret: Passphrase,
});

/** A blank optional text as absent. */
function present(value: string | null | undefined): string | undefined {
  return value === '' || value === null ? undefined : value;
}

export const SETTINGS_ENGINES_IPC = {
  'settings:engines': argsOf('settings:engines', []).returns<EngineSettings[]>(),
  /** Adds an EVM chain to DATA/engines.json (and to the running engine). */
  'settings:addEngine': argsOf('settings:addEngine', ['engine'], NewEngineSchema)
    .map(([e]): [EngineSettings] => [
      {
        id: e.id,
        rpc_url: e.rpc_url,
        chain_id: e.chain_id,
        confirmations: e.confirmations,
        environment: e.environment,
        explorer_tx_url: present(e.explorer_tx_url),
        explorer_address_url: present(e.explorer_address_url),
      },
    ])
    .returns<EngineSettings[]>(),
  /** Asks the RPC URL for its chain id and block number; never throws for an unreachable node. */
  'settings:testEngine': argsOf('settings:testEngine', ['rpcUrl', 'chainId'], Url, ChainId).returns<EngineTestResult>(),
};

const remoteInput = (channel: string) =>
  argsOf(channel, ['connection'], RemoteConnectionSchema).map(([r]): [RemoteConnectionInput] => {
    const authUrl = present(r.auth_url);
    return [{ base_url: r.base_url, ...(authUrl ? { auth_url: authUrl } : {}), client_id: r.client_id, client_secret: r.client_secret }];
  });

export const SETTINGS_REMOTE_IPC = {
  'settings:remote': argsOf('settings:remote', []).returns<RemoteConnection | null>(),
  /** Gets a token and lists the engines; never throws for a service that does not answer. */
  'settings:testRemote': remoteInput('settings:testRemote').returns<{ ok: boolean; message: string }>(),
  /** Tests, then keeps the connection (DATA/remote.json, the secret in the key store). */
  'settings:saveRemote': remoteInput('settings:saveRemote').returns<RemoteConnection>(),
  /**
   * Makes every view work over the saved connection (its secret from the key store); kept in
   * remote.json, so the app starts on it again. Refused with a sentence, nothing changed, when
   * the service does not answer or refuses the client.
   */
  'settings:useRemote': argsOf('settings:useRemote', []).returns<RemoteConnection>(),
  /** Back to this machine's engine; remembered too. */
  'settings:useEmbedded': argsOf('settings:useEmbedded', []).returns<null>(),
};

export const SETTINGS_IPC = {
  ...SETTINGS_ENGINES_IPC,
  ...SETTINGS_REMOTE_IPC,
  'settings:get': argsOf('settings:get', []).returns<SettingsOverview>(),
  /** Makes the first Partner with its keys, and makes it the active one. */
  'settings:firstRun': argsOf('settings:firstRun', ['input'], FirstRunInputSchema)
    .map(([{ name, issuingInterval }]) => [{ name, issuingInterval }])
    .returns<{ partner: PartnerSettings } & NewClientSecret>(),
  'settings:setInterval': argsOf('settings:setInterval', ['interval'], Interval).returns<PartnerSettings>(),
  /** Replaces the active Partner's client secret; the old one stops working at once. */
  'settings:newSecret': argsOf('settings:newSecret', []).returns<NewClientSecret>(),
  /** Opens the encrypted keys file with its passphrase (kept in main's memory only). */
  'settings:unlockKeys': argsOf('settings:unlockKeys', ['passphrase'], Passphrase).returns<SettingsOverview>(),
  /** Makes the encrypted keys file under a new passphrase, typed twice. */
  'settings:createPassphrase': argsOf('settings:createPassphrase', ['passphrase', 'again'], Passphrase, Passphrase).returns<SettingsOverview>(),
  'settings:keys': argsOf('settings:keys', []).returns<KeysInfo>(),
  /**
   * Asks where to save (the OS save dialog, in main) and writes an encrypted backup of the active
   * Partner's keys there; null when the admin cancels. Where main has no dialog (the browser
   * bridge) it refuses: use `settings:backupKeysFile`, which the page downloads.
   */
  'settings:backupKeys': argsOf('settings:backupKeys', ['passphrase'], Passphrase).returns<{ path: string; address: string } | null>(),
  /** The encrypted backup as a file's name and text, for the browser bridge's download. */
  'settings:backupKeysFile': argsOf('settings:backupKeysFile', ['passphrase'], Passphrase).returns<{ fileName: string; content: string; address: string }>(),
  /**
   * Asks for a backup file (the OS open dialog, in main), restores its Partner and makes it the
   * active one; null when the admin cancels. The browser bridge uses `settings:restoreKeysFile`.
   */
  'settings:restoreKeys': argsOf('settings:restoreKeys', ['passphrase'], Passphrase).returns<PartnerSettings | null>(),
  /** Restores from an uploaded backup file's text (the browser bridge). */
  'settings:restoreKeysFile': argsOf(
    'settings:restoreKeysFile',
    ['fileName', 'content', 'passphrase'],
    Type.String({ minLength: 1, maxLength: 1000 }),
    Type.String({ minLength: 1, maxLength: 1024 * 1024 }),
    Passphrase,
  ).returns<PartnerSettings>(),
};
