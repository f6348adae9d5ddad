import { randomBytes, randomUUID, scryptSync, timingSafeEqual } from 'node:crypto';
import { ServiceError } from '../../common/errors.js';
import { formatDate } from '../../common/validate.js';
import type { Partner } from '../../common/wire-types.js';
import type { Clock } from './clock.js';
import type { Db } from './database.js';
import { claimRequests, readRequestLimits, writeRequestLimits, type Grant, type RequestLimits } from './request-limits.js';

/** The OAuth realm Partners authenticate in (the spec's `/realms/<realm>/...`). */
export const REALM = 'proofdesk';

/** Default issuing interval: once a day. */
export const DEFAULT_ISSUING_INTERVAL_SECONDS = 24 * 3600;

/** What `partner add` hands out, once: the secret is never stored nor shown again. */
export interface NewPartnerCredentials {
  partner_id: string;
  name: string;
  client_id: string;
  client_secret: string;
  realm: string;
}

export interface PartnerRecord {
  id: string;
  name: string;
  client_id: string;
  issuing_interval_seconds: number;
  created_date: string;
  /** The Partner's chain account (fund it to issue on live chains); null until its keys are made. */
  chain_address: string | null;
  /** Requests a live server answers per second and per UTC day; null for no limit. */
  requests_per_second: number | null;
  requests_per_day: number | null;
}

/** A Partner's row as a key backup carries it. */
export interface PartnerBackupRow {
  id: string;
  name: string;
  client_id: string;
  secret_hash: string;
  issuing_interval_s: number;
  created_date: number;
}

interface PartnerRow extends PartnerBackupRow, Pick<PartnerRecord, 'chain_address' | 'requests_per_second' | 'requests_per_day'> {}

const SELECT_PARTNERS = 'SELECT p.*, k.chain_address FROM partners p LEFT JOIN partner_keys k ON k.partner_id = p.id';

// scrypt with a per-secret salt: the secret is 256 random bits, so this is belt and braces
// against a leaked database rather than against guessing.
const SCRYPT = { N: 16384, r: 8, p: 1, keylen: 32 } as const;

function hashSecret(secret: string): string {
  const salt = randomBytes(16);
  const hash = scryptSync(secret, salt, SCRYPT.keylen, { N: SCRYPT.N, r: SCRYPT.r, p: SCRYPT.p });
  return `scrypt$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

function secretMatches(secret: string, stored: string): boolean {
  const [scheme, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = scryptSync(secret, Buffer.from(salt, 'base64url'), expected.length, { N: SCRYPT.N, r: SCRYPT.r, p: SCRYPT.p });
  return timingSafeEqual(actual, expected);
}

function toRecord(row: PartnerRow): PartnerRecord {
  return {
    id: row.id,
    name: row.name,
    client_id: row.client_id,
    issuing_interval_seconds: row.issuing_interval_s,
    created_date: formatDate(row.created_date),
    chain_address: row.chain_address,
    requests_per_second: row.requests_per_second,
    requests_per_day: row.requests_per_day,
  };
}

/** The Partners of one data directory: who may issue, with which client credentials. */
export class PartnerRegistry {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** Registers a Partner and returns its client credentials; the secret is stored only as a hash. */
  add(input: { name: string; issuingIntervalSeconds?: number }): NewPartnerCredentials {
    const name = typeof input.name === 'string' ? input.name.trim() : '';
    if (name.length === 0 || name.length > 200) throw new ServiceError('invalid_value', 'A partner needs a name of 1 to 200 characters');
    const interval = input.issuingIntervalSeconds ?? DEFAULT_ISSUING_INTERVAL_SECONDS;
    if (!Number.isSafeInteger(interval) || interval < 1) throw new ServiceError('invalid_value', 'The issuing interval must be at least one second');
    const id = randomUUID();
    const clientId = `pd-${randomBytes(9).toString('base64url')}`;
    const secret = randomBytes(32).toString('base64url');
    this.db
      .prepare('INSERT INTO partners (id, name, client_id, secret_hash, issuing_interval_s, created_date) VALUES (?, ?, ?, ?, ?, ?)')
      .run(id, name, clientId, hashSecret(secret), interval, this.clock.now());
    return { partner_id: id, name, client_id: clientId, client_secret: secret, realm: REALM };
  }

  list(): PartnerRecord[] {
    return (this.db.prepare(`${SELECT_PARTNERS} ORDER BY p.created_date, p.name`).all() as PartnerRow[]).map(toRecord);
  }

  /** A Partner by id, or undefined. */
  find(id: string): PartnerRecord | undefined {
    const row = this.db.prepare(`${SELECT_PARTNERS} WHERE p.id = ?`).get(id) as PartnerRow | undefined;
    return row && toRecord(row);
  }

  /** A Partner by id or exact name (the CLI accepts either); throws when none or several match. */
  resolve(idOrName: string): PartnerRecord {
    const rows = this.db.prepare(`${SELECT_PARTNERS} WHERE p.id = ? OR p.name = ?`).all(idOrName, idOrName) as PartnerRow[];
    if (rows.length === 0) throw new ServiceError('invalid_value', `No partner with id or name ${JSON.stringify(idOrName)}`);
    if (rows.length > 1) throw new ServiceError('invalid_value', `Several partners are named ${JSON.stringify(idOrName)}: use the partner id`);
    return toRecord(rows[0]!);
  }

  setIssuingInterval(id: string, seconds: number): PartnerRecord {
    if (!Number.isSafeInteger(seconds) || seconds < 1) throw new ServiceError('invalid_value', 'The issuing interval must be at least one second');
    const changed = this.db.prepare('UPDATE partners SET issuing_interval_s = ? WHERE id = ?').run(seconds, id).changes;
    if (changed === 0) throw new ServiceError('invalid_value', `No partner with id ${JSON.stringify(id)}`);
    return this.find(id)!;
  }

  /** A Partner's request limits (docs/deploying.md: per-Partner limits). */
  requestLimits(id: string): RequestLimits {
    return readRequestLimits(this.db, id);
  }

  setRequestLimits(id: string, limits: RequestLimits): PartnerRecord {
    writeRequestLimits(this.db, id, limits);
    return this.find(id)!;
  }

  /** Takes up to `want` of the Partner's requests at `now` for this node (request-limits.ts). */
  claimRequests(id: string, limits: RequestLimits, now: number, want: number, unused?: { dayStart: number; count: number }): Grant {
    return claimRequests(this.db, id, limits, now, want, unused);
  }

  // Settings: a new client secret, and a Partner's row as a key backup carries it.
  /** Gives the Partner a new client secret (the old one stops working) and returns it, once. */
  resetSecret(id: string): NewPartnerCredentials {
    const secret = randomBytes(32).toString('base64url');
    const changed = this.db.prepare('UPDATE partners SET secret_hash = ? WHERE id = ?').run(hashSecret(secret), id).changes;
    if (changed === 0) throw new ServiceError('not_found', 'That Partner is not in this data directory.');
    const partner = this.find(id)!;
    return { partner_id: id, name: partner.name, client_id: partner.client_id, client_secret: secret, realm: REALM };
  }

  /** The Partner's row for a backup (the secret only as its hash). */
  backupRow(id: string): PartnerBackupRow {
    const row = this.db.prepare('SELECT id, name, client_id, secret_hash, issuing_interval_s, created_date FROM partners WHERE id = ?').get(id) as PartnerBackupRow | undefined;
    if (!row) throw new ServiceError('not_found', 'That Partner is not in this data directory.');
    return row;
  }

  /** Adds a Partner from a backup, keeping its id and client credentials; a Partner already here is left as it is. */
  restoreRow(row: PartnerBackupRow): PartnerRecord {
    const existing = this.find(row.id);
    if (existing) return existing;
    const clash = this.db.prepare('SELECT id FROM partners WHERE client_id = ?').get(row.client_id);
    if (clash) throw new ServiceError('invalid_value', 'Another Partner here already uses the client id of the backup; nothing was changed.');
    this.db
      .prepare('INSERT INTO partners (id, name, client_id, secret_hash, issuing_interval_s, created_date) VALUES (?, ?, ?, ?, ?, ?)')
      .run(row.id, row.name, row.client_id, row.secret_hash, row.issuing_interval_s, row.created_date);
    return this.find(row.id)!;
  }

  /** The Partner whose client credentials these are, or undefined (never says which part was wrong). */
  authenticate(clientId: string, clientSecret: string): Partner | undefined {
    const row = this.db.prepare(`${SELECT_PARTNERS} WHERE p.client_id = ?`).get(clientId) as PartnerRow | undefined;
    if (!row || !secretMatches(clientSecret, row.secret_hash)) return undefined;
    return { id: row.id, name: row.name };
  }
}
