import { describe, expect, it } from 'vitest';
import { firstSentence } from './error-line.js';

describe('firstSentence', () => {
  it('splits an error into the sentence shown and the rest for Details', () => {
    expect(firstSentence('No OS keychain answered. Install gnome-keyring, or set PROOFDESK_PASSPHRASE.')).toEqual([
      'No OS keychain answered.',
      'Install gnome-keyring, or set PROOFDESK_PASSPHRASE.',
    ]);
    expect(firstSentence('Keytar failed: "Cannot find module". Run `apt-get install libsecret-1-0`.')).toEqual(['Keytar failed: "Cannot find module".', 'Run `apt-get install libsecret-1-0`.']);
  });

  it('keeps abbreviations, decimals and one-sentence errors whole', () => {
    expect(firstSentence('Type a duration, e.g. 30m or 24h.')).toEqual(['Type a duration, e.g. 30m or 24h.', '']);
    expect(firstSentence('The job costs 1.5 ETH at today’s fees.')).toEqual(['The job costs 1.5 ETH at today’s fees.', '']);
  });
});
