/** The REST server's public face. */
export { startServer, buildApp, type ServeOptions, type RunningServer } from './server.js';
export { isLoopbackHost } from './tls.js';
export { operatorLine, type LogFormat } from './request-log.js';
