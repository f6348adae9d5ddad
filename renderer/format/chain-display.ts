/**
 * Chains and amounts as an admin reads them: a chain's name from its chain id ("Sepolia", not
 * 11155111), and a balance in ETH to four decimals with its unit. The ids stay for details and tooltips.
 */
import { t } from '../i18n/i18n-store.js';
import { pageLocale } from './local-format.js';
import type { EngineInfo } from '../../common/wire-types.js';

/** An engine and the chain it issues on (null: not known yet). */
export type EngineChain = Pick<EngineInfo, 'id' | 'chain_id'>;

/** Names of the public EVM chains people issue on, by chain id (the names are the chains' own, in every language). */
const CHAIN_NAMES: Readonly<Record<number, string>> = {
  1: 'Ethereum',
  10: 'OP Mainnet',
  56: 'BNB Smart Chain',
  100: 'Gnosis',
  137: 'Polygon',
  8453: 'Base',
  42161: 'Arbitrum One',
  43114: 'Avalanche',
  11155111: 'Sepolia',
  17000: 'Holesky',
  560048: 'Hoodi',
  80002: 'Polygon Amoy',
  84532: 'Base Sepolia',
  421614: 'Arbitrum Sepolia',
  11155420: 'OP Sepolia',
};

/** Chain ids of development nodes (anvil, Hardhat, Ganache): a chain on this machine. */
const LOCAL_CHAIN_IDS = new Set([31337, 1337]);

/** The name of a public chain, or null when the id is not one we know. */
export function knownChainName(chainId: number | null): string | null {
  return chainId === null ? null : (CHAIN_NAMES[chainId] ?? null);
}

/**
 * What the window calls an engine's chain: "Sepolia", "Local chain" (the embedded one, or any
 * development node), else "Chain 12345" for an id we do not know.
 *
 * @example chainName({ id: 'sepolia', chain_id: 11155111 }) // 'Sepolia'
 */
export function chainName(engine: EngineChain): string {
  const known = knownChainName(engine.chain_id);
  if (known) return known;
  if (engine.id === 'local' || (engine.chain_id !== null && LOCAL_CHAIN_IDS.has(engine.chain_id))) return t('chain.local');
  if (engine.chain_id === null) return engine.id;
  return t('chain.unknown', { chainId: engine.chain_id });
}

/**
 * What the window calls an engine among the engines it knows: its chain's name, with the engine
 * id beside it only where two engines share that name ("Sepolia (sepolia-2)"). An engine the
 * list does not hold (not loaded yet, or removed since) is named from its id alone.
 *
 * @example engineDisplayName('local', [{ id: 'local', chain_id: 31337 }]) // 'Local chain'
 */
export function engineDisplayName(id: string, engines: readonly EngineChain[]): string {
  const engine = engines.find((e) => e.id === id) ?? { id, chain_id: null };
  const name = chainName(engine);
  const twin = engines.some((e) => e.id !== id && chainName(e) === name);
  return twin ? t('chain.twin', { chain: name, engine: id }) : name;
}

/** The technical name behind a chain's display name: engine id and chain id, for tooltips and details. */
export function chainTechnical(engine: EngineChain): string {
  return t('chain.technical', { engine: engine.id, chainId: engine.chain_id ?? '—' });
}

/**
 * An amount of ether (decimal text, as main sends balances and costs) to four decimals with the
 * unit: "99.9994 ETH", "0.0000 ETH"; an amount above zero that would show as zero reads "< 0.0001 ETH".
 *
 * @example etherAmount('99.999367949682743386', 'en-US') // '99.9994 ETH'
 */
export function etherAmount(decimal: string, locale = pageLocale()): string {
  const format = new Intl.NumberFormat(locale, { minimumFractionDigits: 4, maximumFractionDigits: 4 });
  // The decimal text keeps every digit of wei; a Number would round before we do.
  const value = Number(decimal);
  if (value > 0 && value < 0.00005) return t('chain.etherBelow', { amount: format.format(0.0001) });
  return t('chain.ether', { amount: format.format(decimal as unknown as number) });
}
