import { describe, expect, it } from 'vitest';
import { isTrustedSender } from './trusted-sender.js';

const FILE_APP = 'file:///opt/Proofdesk/resources/app.asar/out/renderer/index.html';
const DEV_APP = 'http://localhost:5173/';

describe('isTrustedSender', () => {
  it('trusts the packaged renderer file, whatever its query or hash', () => {
    expect(isTrustedSender(FILE_APP, FILE_APP)).toBe(true);
    expect(isTrustedSender(`${FILE_APP}#/jobs`, FILE_APP)).toBe(true);
    expect(isTrustedSender(`${FILE_APP}?x=1`, FILE_APP)).toBe(true);
  });

  it('refuses another local file, even next to ours', () => {
    expect(isTrustedSender('file:///opt/Proofdesk/resources/app.asar/out/renderer/other.html', FILE_APP)).toBe(false);
    expect(isTrustedSender('file:///tmp/evil.html', FILE_APP)).toBe(false);
    expect(isTrustedSender('file://host/opt/Proofdesk/resources/app.asar/out/renderer/index.html', FILE_APP)).toBe(false);
  });

  it('refuses web pages when the app is a file', () => {
    expect(isTrustedSender('https://example.com/index.html', FILE_APP)).toBe(false);
    expect(isTrustedSender('about:blank', FILE_APP)).toBe(false);
    expect(isTrustedSender('data:text/html,hi', FILE_APP)).toBe(false);
  });

  it('trusts the dev server origin only', () => {
    expect(isTrustedSender('http://localhost:5173/', DEV_APP)).toBe(true);
    expect(isTrustedSender('http://localhost:5173/index.html#x', DEV_APP)).toBe(true);
    expect(isTrustedSender('http://localhost:5174/', DEV_APP)).toBe(false);
    expect(isTrustedSender('https://localhost:5173/', DEV_APP)).toBe(false);
    expect(isTrustedSender('http://localhost.evil.com:5173/', DEV_APP)).toBe(false);
    expect(isTrustedSender('http://127.0.0.1:5173/', DEV_APP)).toBe(false);
  });

  it('trusts the app: protocol host only', () => {
    const APP = 'app://proofdesk/index.html';
    expect(isTrustedSender(APP, APP)).toBe(true);
    expect(isTrustedSender('app://proofdesk/index.html#/jobs', APP)).toBe(true);
    expect(isTrustedSender('app://proofdesk/', APP)).toBe(true);
    expect(isTrustedSender('app://other/index.html', APP)).toBe(false);
    expect(isTrustedSender('app://proofdesk.evil/index.html', APP)).toBe(false);
    expect(isTrustedSender('app://user@proofdesk/index.html', APP)).toBe(false);
    expect(isTrustedSender('file:///opt/Proofdesk/resources/app.asar/out/renderer/index.html', APP)).toBe(false);
    expect(isTrustedSender('https://proofdesk/index.html', APP)).toBe(false);
  });

  it('refuses missing or unparsable URLs', () => {
    expect(isTrustedSender(undefined, FILE_APP)).toBe(false);
    expect(isTrustedSender('', FILE_APP)).toBe(false);
    expect(isTrustedSender('not a url', FILE_APP)).toBe(false);
    expect(isTrustedSender(FILE_APP, 'not a url')).toBe(false);
    expect(isTrustedSender('chrome://settings', 'chrome://settings')).toBe(false);
  });
});
