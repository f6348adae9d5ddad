/**
 * The renderer's Content-Security-Policy, defined once: the build writes it into index.html's
 * <meta> tag (electron.vite.config.ts), the `app:` protocol handler and the web bridge send it
 * as a header. The page runs nothing but our own bundle: no inline script or style, no eval,
 * no plugins, no framing, no form posts; data comes only through window.proofdesk.
 */
export const RENDERER_CSP_DIRECTIVES: readonly string[] = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-src 'none'",
  "worker-src 'none'",
  "manifest-src 'none'",
];

/** The policy as index.html's <meta http-equiv="Content-Security-Policy"> carries it. */
export const RENDERER_CSP = RENDERER_CSP_DIRECTIVES.join('; ');

/**
 * The policy as a response header: the same, plus `frame-ancestors 'none'`, the one
 * directive a <meta> tag cannot carry.
 */
export const RENDERER_CSP_HEADER = `${RENDERER_CSP}; frame-ancestors 'none'`;

/** The <meta> tag for index.html; `relaxStyles` lets the dev server's injected <style> through (dev only). */
export function cspMetaTag(relaxStyles = false): string {
  const policy = relaxStyles ? RENDERER_CSP.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'") : RENDERER_CSP;
  return `<meta http-equiv="Content-Security-Policy" content="${policy}" />`;
}

/**
 * index.html with the policy's <meta> tag right after its charset (before any script), as the
 * build writes it. A page that already has a CSP tag is an error: there is one definition.
 */
export function withCspMeta(html: string, relaxStyles = false): string {
  if (/http-equiv=["']?Content-Security-Policy/i.test(html)) throw new Error('index.html has its own Content-Security-Policy: the one definition is main/app/renderer-csp.ts');
  const anchor = /<meta\s+charset=[^>]*>/i.exec(html) ?? /<head[^>]*>/i.exec(html);
  if (!anchor) throw new Error('index.html has no <head>');
  const at = anchor.index + anchor[0].length;
  return `${html.slice(0, at)}\n    ${cspMetaTag(relaxStyles)}${html.slice(at)}`;
}
