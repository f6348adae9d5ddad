/**
 * The wire's text rules as regular expression sources, shared by the schemas (JSON Schema
 * `pattern`) and the hand checks of common/validate.ts. Plain constants, so that code which
 * checks input without TypeBox (the renderer's imports of common/) does not load it.
 */
import { LIMITS } from '../limits.js';

/** A uid: a UUID in its 8-4-4-4-12 hex form (either case). */
export const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

/** SHA-256, lowercase hex (DESIGN.md). */
export const SHA256_PATTERN = '^[0-9a-f]{64}$';

/** One tag: 3 to 64 of A-Z a-z 0-9 _ - (the spec's rule). */
export const TAG_PATTERN = `^[A-Za-z0-9_-]{${LIMITS.tagMinLength},${LIMITS.tagMaxLength}}$`;

/**
 * A date, or a date-time with or without seconds and offset (a date alone means 00:00 UTC, a
 * date-time without an offset UTC). The calendar (no 31 February) is checked apart.
 */
export const DATE_OR_DATE_TIME_PATTERN = '^\\d{4}-\\d{2}-\\d{2}([Tt]\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?([Zz]|[+-]\\d{2}:\\d{2})?)?$';
