/**
 * Handlers of Settings and the first run (common/ipc/settings.ts): the Partner, its keys and
 * their backup. They work on the embedded engine; a remote service owns its Partner and keys,
 * so there they say so instead of failing obscurely.
 */
import { formatEther } from 'viem';
import { parseDuration } from '../../../common/duration.js';
import { ServiceError } from '../../../common/errors.js';
import { MIN_KEYS_PASSPHRASE, type EngineAccount, type KeysInfo, type PartnerSettings, type SETTINGS_IPC, type SettingsOverview } from '../../../common/ipc/settings.js';
import { signingPublicKey, type Engine, type PartnerRecord } from '../../engine/index.js';
import { backUpPartnerKeys, backupFileName, restorePartnerKeys, restorePartnerKeysFromText, sealPartnerKeys } from '../../workspace/settings/key-backup.js';
import { lastBackup, recordBackup } from '../../workspace/settings/backup-record.js';

/** The backup file's extension, offered by the save and open dialogs. */
const BACKUP_EXTENSION = 'proofdesk-keys';
import type { AppContext } from '../app-context.js';
import type { HandlersOf } from './handlers-of.js';
import { createSettingsEnginesHandlers } from './settings-engines.js';
import { createSettingsRemoteHandlers } from './settings-remote.js';

const BALANCE_TIMEOUT_MS = 5_000;

function toSettings(record: PartnerRecord): PartnerSettings {
  const { id, name, client_id, issuing_interval_seconds, created_date, chain_address } = record;
  return { id, name, client_id, issuing_interval_seconds, created_date, chain_address };
}

export function createSettingsHandlers(ctx: AppContext): HandlersOf<typeof SETTINGS_IPC> {
  const engine = (): Engine => {
    if (!ctx.engine) throw new ServiceError('not_found', 'Partner and keys belong to the remote service this app is connected to; change them there.');
    return ctx.engine;
  };
  /** Keys can be made and read only with an open secret store. */
  const requireKeyStore = () => {
    if (ctx.issuingOff) throw new ServiceError('try_again_later', `The keys cannot be kept here yet. ${ctx.issuingOff}`);
  };
  const active = (): PartnerRecord => {
    const { partner } = ctx.require();
    const record = engine().partners.find(partner.id);
    if (!record) throw new ServiceError('not_found', 'The active Partner is no longer in this data directory; pick another one.');
    return record;
  };

  const overview = async (): Promise<SettingsOverview> => {
    const partner = ctx.partner();
    const record = partner && ctx.engine ? ctx.engine.partners.find(partner.id) : undefined;
    return { partner: record ? toSettings(record) : null, keyStore: ctx.keyStore, keyStoreProblem: ctx.issuingOff, mode: ctx.engine ? 'embedded' : 'remote', keyLock: ctx.keyLock() };
  };
  /** Main's file dialog (Electron); the browser bridge downloads and uploads instead. */
  const dialog = () => {
    if (!ctx.chooseFile) throw new ServiceError('invalid_value', 'There is no file dialog here: in the browser the backup is downloaded and restored from an uploaded file.');
    return ctx.chooseFile;
  };
  const restored = (record: PartnerRecord): PartnerSettings => {
    ctx.switchPartner(record.id);
    return toSettings(record);
  };

  return {
    ...createSettingsEnginesHandlers(ctx),
    ...createSettingsRemoteHandlers(ctx),
    'settings:get': async () => overview(),
    'settings:unlockKeys': async (passphrase) => {
      if (ctx.keyLock() !== 'unlock') throw new ServiceError('invalid_value', 'There is no locked keys file to unlock here.');
      await ctx.unlockKeys(passphrase);
      return overview();
    },
    'settings:createPassphrase': async (passphrase, again) => {
      if (ctx.keyLock() !== 'create') throw new ServiceError('invalid_value', 'The encrypted keys file exists already: type its passphrase to unlock it instead.');
      if (passphrase !== again) throw new ServiceError('invalid_value', 'The two passphrases differ: type the same one twice.');
      if (passphrase.length < MIN_KEYS_PASSPHRASE) throw new ServiceError('invalid_value', `The passphrase needs at least ${MIN_KEYS_PASSPHRASE} characters.`);
      await ctx.unlockKeys(passphrase);
      return overview();
    },
    'settings:firstRun': async (input) => {
      const seconds = parseDuration(input.issuingInterval);
      requireKeyStore();
      const created = await engine().addPartner({ name: input.name, issuingIntervalSeconds: seconds });
      ctx.switchPartner(created.partner_id);
      return { partner: toSettings(engine().partners.find(created.partner_id)!), client_id: created.client_id, client_secret: created.client_secret };
    },
    'settings:setInterval': async (interval) => {
      const seconds = parseDuration(interval);
      const updated = engine().partners.setIssuingInterval(active().id, seconds);
      ctx.events.emit({ type: 'partner', partner: { id: updated.id, name: updated.name } });
      return toSettings(updated);
    },
    'settings:newSecret': async () => {
      const created = engine().partners.resetSecret(active().id);
      return { client_id: created.client_id, client_secret: created.client_secret };
    },
    'settings:keys': async () => keysInfo(ctx, engine(), active()),
    'settings:backupKeys': async (passphrase) => {
      requireKeyStore();
      const partner = active();
      const path = await dialog()({ kind: 'save', title: 'native.dialog.saveKeyBackup', defaultName: backupFileName(partner.name), extensions: [BACKUP_EXTENSION] });
      if (path === null) return null;
      const written = await backUpPartnerKeys(engine(), partner.id, path, passphrase);
      ctx.written.remember(written.path);
      await recordBackup(engine().dataDir, partner.id, written.path);
      return written;
    },
    'settings:backupKeysFile': async (passphrase) => {
      requireKeyStore();
      return sealPartnerKeys(engine(), active().id, passphrase);
    },
    'settings:restoreKeys': async (passphrase) => {
      requireKeyStore();
      const path = await dialog()({ kind: 'open', title: 'native.dialog.restoreKeyBackup', extensions: [BACKUP_EXTENSION] });
      if (path === null) return null;
      return restored(await restorePartnerKeys(engine(), path, passphrase));
    },
    'settings:restoreKeysFile': async (fileName, content, passphrase) => {
      requireKeyStore();
      return restored(await restorePartnerKeysFromText(engine(), content, passphrase, fileName));
    },
  };
}

async function keysInfo(ctx: AppContext, engine: Engine, partner: PartnerRecord): Promise<KeysInfo> {
  const signing = signingPublicKey(engine.scopeFor(partner.id));
  const address = partner.chain_address;
  const accounts = await Promise.all(engine.catalog.list().map((config) => accountOn(engine, config.id, config.chain_id, config.environment, address)));
  return { keyStore: ctx.keyStore, address, signingPublicKey: signing, accounts, lastBackup: lastBackup(engine.dataDir, partner.id) };
}

async function accountOn(engine: Engine, id: string, chainId: number | null, environment: 'live' | 'demo', address: string | null): Promise<EngineAccount> {
  const base = { engine: id, chain_id: chainId, environment };
  if (!address) return { ...base, balance: null, hint: 'The keys are made with the first credential issued; the account shows here then.' };
  try {
    const wei = await Promise.race([
      engine.issuing.ctx.chains.client(id).then((client) => client.balanceOf(address as `0x${string}`)),
      new Promise<never>((_, fail) => setTimeout(() => fail(new Error(`no answer within ${BALANCE_TIMEOUT_MS / 1000} s`)), BALANCE_TIMEOUT_MS).unref()),
    ]);
    const balance = formatEther(wei);
    const hint =
      id === 'local'
        ? 'The local development chain funds this account by itself when it issues.'
        : wei === 0n
          ? `Send some ether on chain ${chainId ?? '?'} to ${address} before issuing on ${id}: every job's transaction is paid from it.`
          : `Each job's transaction is paid from this account; top it up on chain ${chainId ?? '?'} before it runs dry.`;
    return { ...base, balance, hint };
  } catch (error) {
    return { ...base, balance: null, hint: `The chain of ${id} does not answer (${error instanceof Error ? error.message : String(error)}), so the balance is unknown; check its RPC URL in Settings › Engines.` };
  }
}
