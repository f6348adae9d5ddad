import { afterEach, describe, expect, it } from 'vitest';
import { t, useI18nStore } from '../i18n/i18n-store.js';
import { engineHeadings } from './record-columns.js';

describe('state column headings', () => {
  afterEach(() => useI18nStore.getState().choose('en'));

  it("names each engine's column by its chain, with the ids in the tooltip", () => {
    const headings = engineHeadings(['local', 'sepolia'], [{ id: 'local', chain_id: 31337 }, { id: 'sepolia', chain_id: 11155111 }], t);
    expect(headings.get('local')).toEqual({ header: 'Local chain', title: 'Engine local, chain id 31337' });
    expect(headings.get('sepolia')).toEqual({ header: 'Sepolia', title: 'Engine sepolia, chain id 11155111' });
  });

  it('tells apart two engines on the same chain by their ids, in the window language', () => {
    useI18nStore.getState().choose('de');
    const headings = engineHeadings(['sepolia', 'sepolia-2'], [{ id: 'sepolia', chain_id: 11155111 }, { id: 'sepolia-2', chain_id: 11155111 }], t);
    expect([...headings.values()].map((h) => h.header)).toEqual(['Sepolia (sepolia)', 'Sepolia (sepolia-2)']);
    expect(headings.get('sepolia-2')!.title).toBe('Engine sepolia-2, Chain-ID 11155111');
  });

  it('names an engine the status does not list yet by its id', () => {
    expect(engineHeadings(['archive'], [], t).get('archive')!.header).toBe('archive');
  });
});
