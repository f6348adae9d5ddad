import { afterEach, describe, expect, it } from 'vitest';
import { useI18nStore } from '../i18n/i18n-store.js';
import { chainName, chainTechnical, engineDisplayName, etherAmount, knownChainName } from './chain-display.js';

describe('chain names', () => {
  afterEach(() => useI18nStore.getState().choose('en'));

  it('names the public chains by their chain id, not by the engine id the admin typed', () => {
    expect(chainName({ id: 'sepolia', chain_id: 11155111 })).toBe('Sepolia');
    expect(chainName({ id: 'main', chain_id: 1 })).toBe('Ethereum');
    expect(chainName({ id: 'polygon-pos', chain_id: 137 })).toBe('Polygon');
    expect(chainName({ id: 'b', chain_id: 8453 })).toBe('Base');
    expect(knownChainName(null)).toBeNull();
  });

  it('names an engine among the known ones by its chain, with its id only where two share a chain', () => {
    const engines = [
      { id: 'local', chain_id: 31337 },
      { id: 'sepolia', chain_id: 11155111 },
    ];
    expect(engineDisplayName('local', engines)).toBe('Local chain');
    expect(engineDisplayName('sepolia', engines)).toBe('Sepolia');
    const twins = [...engines, { id: 'sepolia-2', chain_id: 11155111 }];
    expect(engineDisplayName('sepolia', twins)).toBe('Sepolia (sepolia)');
    expect(engineDisplayName('sepolia-2', twins)).toBe('Sepolia (sepolia-2)');
    // Not (yet) among the engines the window knows: named from its id alone.
    expect(engineDisplayName('local', [])).toBe('Local chain');
    expect(engineDisplayName('campus', [])).toBe('campus');
  });

  it('calls the embedded chain and development nodes the local chain, in the window language', () => {
    expect(chainName({ id: 'local', chain_id: null })).toBe('Local chain');
    expect(chainName({ id: 'dev', chain_id: 31337 })).toBe('Local chain');
    useI18nStore.getState().choose('de');
    expect(chainName({ id: 'local', chain_id: 31337 })).toBe('Lokale Chain');
  });

  it('falls back to the chain id for a chain it does not know, and keeps both ids for the details', () => {
    expect(chainName({ id: 'acme-net', chain_id: 424242 })).toBe('Chain 424242');
    expect(chainName({ id: 'acme-net', chain_id: null })).toBe('acme-net');
    expect(chainTechnical({ id: 'sepolia', chain_id: 11155111 })).toBe('Engine sepolia, chain id 11155111');
  });
});

describe('ether amounts', () => {
  it('shows four decimals and the unit, rounding the wei digits the balance carries', () => {
    expect(etherAmount('99.999367949682743386', 'en-US')).toBe('99.9994 ETH');
    expect(etherAmount('0.00424999', 'en-US')).toBe('0.0042 ETH');
    expect(etherAmount('10', 'en-US')).toBe('10.0000 ETH');
    expect(etherAmount('0', 'en-US')).toBe('0.0000 ETH');
  });

  it('groups and separates digits as the locale does', () => {
    expect(etherAmount('12345.67891', 'en-US')).toBe('12,345.6789 ETH');
    expect(etherAmount('12345.67891', 'de-DE')).toBe('12.345,6789 ETH');
  });

  it('never shows a small amount above zero as zero', () => {
    expect(etherAmount('0.000031', 'en-US')).toBe('< 0.0001 ETH');
    expect(etherAmount('0.00006', 'en-US')).toBe('0.0001 ETH');
  });

  it('keeps digits a Number would lose', () => {
    expect(etherAmount('123456789012.123456789', 'en-US')).toBe('123,456,789,012.1235 ETH');
  });
});
