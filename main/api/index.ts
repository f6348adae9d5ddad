/** The REST server's public face. */
export { startServer, buildApp, type ServeOptions, type RunningServer } from './server.js';
export { DEFAULT_LIMITS, type ApiLimits, type UploadLimits } from './context.js';
export { TOKEN_PATH } from './auth/token-route.js';
export { AUDIENCE, TOKEN_LIFETIME_S } from './auth/unauthorized.js';
export { TOKEN_ALGORITHM, type TokenKeys } from './auth/local-tokens.js';
export { isLoopbackHost, type TlsFiles } from './tls.js';
export { operatorLine, type LogFormat } from './request-log.js';
export { HEALTH_PATH, READY_PATH } from './health.js';
