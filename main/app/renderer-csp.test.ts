import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RENDERER_CSP, RENDERER_CSP_HEADER, withCspMeta } from './renderer-csp.js';

const INDEX_HTML = readFileSync(new URL('../../renderer/index.html', import.meta.url), 'utf8');

describe('the renderer CSP, defined once', () => {
  it('is written into index.html by the build, before any script, and nowhere by hand', () => {
    expect(INDEX_HTML).not.toMatch(/http-equiv=["']?Content-Security-Policy/i);
    const built = withCspMeta(INDEX_HTML);
    const tags = [...built.matchAll(/<meta http-equiv="Content-Security-Policy" content="([^"]*)" \/>/g)];
    expect(tags.map((m) => m[1])).toEqual([RENDERER_CSP]);
    expect(built.indexOf('Content-Security-Policy')).toBeLessThan(built.indexOf('<script'));
    expect(built.indexOf('Content-Security-Policy')).toBeGreaterThan(built.indexOf('<meta charset'));
  });

  it('is strict in the build and relaxes only style-src for the dev server', () => {
    expect(RENDERER_CSP).not.toMatch(/unsafe-(inline|eval)/);
    for (const directive of ["default-src 'self'", "script-src 'self'", "object-src 'none'", "base-uri 'none'", "form-action 'none'"]) expect(RENDERER_CSP).toContain(directive);
    const dev = withCspMeta(INDEX_HTML, true);
    expect(dev).toContain("style-src 'self' 'unsafe-inline'");
    expect(dev).not.toContain("script-src 'self' 'unsafe-inline'");
    expect(RENDERER_CSP_HEADER).toBe(`${RENDERER_CSP}; frame-ancestors 'none'`);
  });

  it('refuses a page that carries a policy of its own', () => {
    expect(() => withCspMeta(withCspMeta(INDEX_HTML))).toThrow(/one definition/);
    expect(() => withCspMeta('no head here')).toThrow(/no <head>/);
  });
});
