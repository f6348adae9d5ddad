/** The embedded issuing engine's public face. */
export { Engine, type EngineOptions } from './engine.js';
export type { Readiness, SchedulerPlace } from './readiness.js';
export { EmbeddedService } from './embedded-service.js';
export { defaultDataDir } from './data-dir.js';
export { ManualClock, systemClock, type Clock } from './clock.js';
export { REALM, DEFAULT_ISSUING_INTERVAL_SECONDS, type NewPartnerCredentials, type PartnerRecord, type PartnerBackupRow } from './partners.js';
export type { PartnerKeyMaterial } from './issuing/partner-keys.js';
export { LOCAL_ENGINE, ENGINES_FILE, type EngineConfig } from './engine-catalog.js';
export { ensurePrivateFile, ensurePrivateDir, makeTreePrivate, PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from './private-files.js';
