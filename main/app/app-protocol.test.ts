import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_URL, resolveAppPath, serveAppRequest } from './app-protocol.js';
import { RENDERER_CSP, RENDERER_CSP_HEADER } from './renderer-csp.js';

/** A renderer folder with a secret beside it (and one above it) that must never be served. */
let top: string;
let root: string;

beforeAll(() => {
  top = mkdtempSync(join(tmpdir(), 'proofdesk-app-protocol-'));
  root = join(top, 'out', 'renderer');
  mkdirSync(join(root, 'assets'), { recursive: true });
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>Proofdesk</title>');
  writeFileSync(join(root, 'assets', 'index-abc.js'), 'console.log(1)');
  writeFileSync(join(root, 'assets', 'index-abc.css'), 'body{}');
  writeFileSync(join(root, 'assets', 'logo.svg'), '<svg/>');
  writeFileSync(join(root, 'assets', 'data.bin'), 'x');
  writeFileSync(join(top, 'out', 'secret.txt'), 'SECRET');
  writeFileSync(join(top, 'out', 'renderer-evil.txt'), 'SECRET');
});
afterAll(() => rmSync(top, { recursive: true, force: true }));

const get = (url: string, method = 'GET') => serveAppRequest(new Request(url, { method }), { root });

describe('the app: protocol', () => {
  it('serves index.html at / and at its name, with the CSP as a header', async () => {
    for (const url of ['app://proofdesk/', 'app://proofdesk', APP_URL, `${APP_URL}?x=1#/jobs`]) {
      const response = await get(url);
      expect(response.status, url).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('content-security-policy')).toBe(RENDERER_CSP_HEADER);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(await response.text()).toContain('<title>Proofdesk</title>');
    }
  });

  it('serves the bundle with its content types', async () => {
    const types: Record<string, string> = {
      'assets/index-abc.js': 'text/javascript; charset=utf-8',
      'assets/index-abc.css': 'text/css; charset=utf-8',
      'assets/logo.svg': 'image/svg+xml',
      'assets/data.bin': 'application/octet-stream',
    };
    for (const [path, type] of Object.entries(types)) {
      const response = await get(`app://proofdesk/${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type'), path).toBe(type);
      expect(response.headers.get('content-security-policy'), path).toBe(RENDERER_CSP_HEADER);
    }
    const head = await get('app://proofdesk/assets/index-abc.js', 'HEAD');
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('refuses every way out of the renderer folder with 404', async () => {
    const attempts = [
      'app://proofdesk/../secret.txt',
      'app://proofdesk/%2e%2e/secret.txt',
      'app://proofdesk/%2E%2E/%2E%2E/out/secret.txt',
      'app://proofdesk/assets/..%2f..%2fsecret.txt',
      'app://proofdesk/assets/%2e%2e%2f%2e%2e%2fsecret.txt',
      'app://proofdesk/..%5c..%5csecret.txt',
      'app://proofdesk/assets%5c..%5c..%5csecret.txt',
      'app://proofdesk/%2fetc%2fpasswd',
      'app://proofdesk//etc/passwd',
      'app://proofdesk/assets/%00index-abc.js',
      'app://proofdesk/%E0%A4%A',
      `app://proofdesk/${encodeURIComponent(join(top, 'out', 'secret.txt'))}`,
      'app://proofdesk/../renderer-evil.txt',
      'app://other/index.html',
      'app://proofdesk:8080/index.html',
      'file:///etc/passwd',
      'https://proofdesk/index.html',
      'app://proofdesk/assets',
      'app://proofdesk/assets/',
      'app://proofdesk/missing.js',
    ];
    for (const url of attempts) {
      const response = await get(url);
      expect(response.status, url).toBe(404);
      const text = await response.text();
      expect(text, url).not.toContain('SECRET');
      expect(text, url).not.toContain('root:');
      expect(response.headers.get('content-security-policy'), url).toBe(RENDERER_CSP_HEADER);
    }
  });

  it('resolves only paths inside the folder', () => {
    expect(resolveAppPath('app://proofdesk/assets/index-abc.js', root)).toBe(join(root, 'assets', 'index-abc.js'));
    expect(resolveAppPath('app://proofdesk/', root)).toBe(join(root, 'index.html'));
    expect(resolveAppPath('app://proofdesk/a%20b.js', root)).toBe(join(root, 'a b.js'));
    // The URL parser folds `..` and `%2e%2e` segments at the root: what is left stays inside.
    for (const url of ['app://proofdesk/%2e%2e/secret.txt', 'app://proofdesk/../../secret.txt', 'app://proofdesk/assets/..%2f..%2fsecret.txt', 'app://proofdesk/..%5csecret.txt']) {
      const path = resolveAppPath(url, root);
      expect(path === null || path.startsWith(`${root}/`), `${url} → ${path}`).toBe(true);
    }
    expect(resolveAppPath('app://proofdesk/assets/..%2f..%2fsecret.txt', root)).toBeNull();
    expect(resolveAppPath('app://user@proofdesk/index.html', root)).toBeNull();
    expect(resolveAppPath('not a url', root)).toBeNull();
  });

  it('answers other methods 405', async () => {
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const response = await get(APP_URL, method);
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('GET, HEAD');
    }
  });

  it('sends the same policy as the meta tag, plus frame-ancestors', () => {
    expect(RENDERER_CSP_HEADER).toBe(`${RENDERER_CSP}; frame-ancestors 'none'`);
    expect(RENDERER_CSP).toContain("script-src 'self'");
    expect(RENDERER_CSP).not.toMatch(/unsafe-(inline|eval)/);
  });
});
