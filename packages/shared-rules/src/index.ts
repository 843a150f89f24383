export { SWITCH_OFF_WORDS, SWITCH_ON_WORDS, SWITCH_WORDS_HINT, parseSwitch } from './switch-words.js';
export { MAX_REQUEST_ID_LENGTH, isAcceptableRequestId, requestIdFrom } from './request-id.js';
export { MAX_RECONNECT_DELAY_SECONDS, reconnectDelaySeconds } from './reconnect-delay.js';
export { applyMigrations, migrate, withAdvisoryLock, type Migration, type MigrationLedger } from './migrations.js';
export { gotUrl, urlInMessage } from './url-in-message.js';
export { OTLP_PROTOCOLS, TracingSettingError, tracingSwitch } from './tracing-switch.js';
export type { OtlpProtocol, TracingSwitch } from './tracing-switch.js';
