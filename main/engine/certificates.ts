import { ServiceError } from '../../common/errors.js';
import { makePage, parsePageQuery, type PageRequest } from '../../common/pagination.js';
import type { CertificateQuery, PageQuery, TagQuery } from '../../common/requests.js';
import { formatDate, isUuid, parseDateFilter, parseTagFilter } from '../../common/validate.js';
import { VERIFICATION_STATUSES, type Certificate, type Page, type VerificationStatus } from '../../common/wire-types.js';
import type { EngineConfig } from './engine-catalog.js';
import { readCredentials } from './credential-reader.js';
import { Conditions, cached, selectPage } from './list-query.js';
import { PROOF_FORMAT, type ProofFile } from './proofs/proof-file.js';
import { deserializeMerkleTree, merklePath, type MerkleTree } from './proofs/merkle-tree.js';
import { payloadText } from './proofs/payload-codec.js';
import type { PartnerScope } from './scope.js';
import { jsonTexts, rowsInOrder, unindexed } from './store/dialect.js';

/** A certificate row with what its proof needs from its job, registry and Partner. */
export interface CertificateRow {
  id: number;
  uid: string;
  credential_id: number;
  job_id: number;
  engine: string;
  leaf_index: number;
  /** Hex (stored as 32 bytes). */
  leaf: string;
  /** As stored: raw DEFLATE with the job's dictionary (payload-codec.ts); text before schema 4. */
  payload: Buffer | string;
  /** Hex (stored as 64 bytes). */
  signature: string;
  revoked_date: number | null;
  revoke_tx: number | null;
  last_verification_status: VerificationStatus | null;
  last_verification_date: number | null;
  job_status: string;
  issued_date: number | null;
  root: string | null;
  tx_hash: string | null;
  registry: string | null;
  public_key: string | null;
}

const ROW_SQL = `SELECT c.*, j.status AS job_status, j.issued_date, j.root, t.hash AS tx_hash, r.address AS registry, k.signing_public_key AS public_key
  FROM certificates c JOIN jobs j ON j.id = c.job_id
  LEFT JOIN chain_txs t ON t.id = j.issue_tx
  LEFT JOIN registries r ON r.partner_id = c.partner_id AND r.engine = c.engine
  LEFT JOIN partner_keys k ON k.partner_id = c.partner_id`;

/** Certificates are listed once their transaction is mined: before that nothing is issued. */
const ISSUED = "j.status IN ('unconfirmed', 'finished')";

const CERTIFICATE_SORT = { issued_date: 'j.issued_date', chain: 'c.engine' };

type StoredRow = Omit<CertificateRow, 'leaf' | 'signature'> & { leaf: Buffer | string; signature: Buffer | string };

const hex = (value: Buffer | string): string => (typeof value === 'string' ? value : value.toString('hex'));

function decodeRow(row: StoredRow): CertificateRow {
  return { ...row, leaf: hex(row.leaf), signature: hex(row.signature) };
}

function readRows(scope: PartnerScope, ids: readonly number[]): CertificateRow[] {
  return rowsInOrder<StoredRow>(scope.db, ROW_SQL, 'c.id', ids).map(decodeRow);
}

/** The Partner's issued certificate with this uid; `missing_certificate` otherwise (also before it is mined). */
export function certificateRow(scope: PartnerScope, uid: string): CertificateRow {
  const row = isUuid(uid)
    ? (cached(scope.db, `${ROW_SQL} WHERE c.partner_id = ? AND c.uid = ? AND ${ISSUED}`).get(scope.partner.id, uid.toLowerCase()) as StoredRow | undefined)
    : undefined;
  if (!row) throw new ServiceError('missing_certificate', `No issued certificate ${JSON.stringify(uid)}`);
  return decodeRow(row);
}

/**
 * The Partner's issued certificates with these uids, in one query: by uid (lowercase), those
 * found (a uid not issued, not the Partner's or not a UUID is absent). The unary `+` keeps SQLite
 * on the uid index: by the Partner's index it would read all of the Partner's certificates.
 */
export function certificateRowsByUid(scope: PartnerScope, uids: readonly string[]): Map<string, CertificateRow> {
  const wanted = [...new Set(uids.filter(isUuid).map((u) => u.toLowerCase()))];
  const rows = cached(scope.db, `${ROW_SQL} WHERE c.uid IN (SELECT u.value FROM ${jsonTexts(scope.db, '?', 'u')}) AND ${unindexed(scope.db, 'c.partner_id')} = ? AND ${ISSUED}`).all(JSON.stringify(wanted), scope.partner.id) as StoredRow[];
  return new Map(rows.map((r) => [r.uid, decodeRow(r)]));
}

/** The issued certificates of one of the Partner's credentials, one per engine. */
export function certificateIdsOfCredential(scope: PartnerScope, credentialId: number): number[] {
  return cached(scope.db, `SELECT c.id FROM certificates c JOIN jobs j ON j.id = c.job_id WHERE c.credential_id = ? AND ${ISSUED} ORDER BY c.id`).pluck().all(credentialId) as number[];
}

/** Certificates in the wire shape, with their credentials as they are now (nested). */
export function toWire(scope: PartnerScope, rows: CertificateRow[]): Certificate[] {
  const credentials = readCredentials(scope.db, rows.map((r) => r.credential_id));
  return rows.map((r, i) => ({
    certificate: {
      uid: r.uid,
      partner: { ...scope.partner },
      credential: credentials[i]!,
      issued_date: formatDate(r.issued_date!),
      signature: r.signature,
    },
    revoked_date: formatDate(r.revoked_date),
    last_verification: r.last_verification_status ? { status: r.last_verification_status, timestamp: formatDate(r.last_verification_date!) } : null,
  }));
}

function certificatePage(scope: PartnerScope, where: Conditions, page: PageRequest): Page<Certificate> {
  const { total, ids } = selectPage(scope.db, 'certificates c JOIN jobs j ON j.id = c.job_id', 'c.id', where, CERTIFICATE_SORT, page);
  return makePage(page, total, toWire(scope, readRows(scope, ids)));
}

/** GET /certificates */
export function listCertificates(scope: PartnerScope, query: CertificateQuery | undefined): Page<Certificate> {
  const page = parsePageQuery(query, ['issued_date', 'chain'], 'issued_date');
  const q = query ?? {};
  const partner = scope.partner.id;
  const where = new Conditions('c.partner_id = ?', partner).add(ISSUED);
  const uidFilter = (value: string | undefined, name: string, sql: string) => {
    if (value === undefined || value === '') return;
    if (!isUuid(value)) throw new ServiceError('invalid_value', `${name} must be a UUID, got ${JSON.stringify(value)}`);
    where.add(sql, value.toLowerCase());
  };
  uidFilter(q.uid, 'uid', 'c.uid = ?');
  uidFilter(q.job_uid, 'job_uid', 'j.uid = ?');
  uidFilter(q.credential_uid, 'credential_uid', 'c.credential_id = (SELECT id FROM credentials WHERE uid = ?)');
  where.range('j.issued_date', parseDateFilter(q.issued_date_from, 'issued_date_from'), parseDateFilter(q.issued_date_until, 'issued_date_until'));
  if (q.verification_status !== undefined && q.verification_status !== '') {
    if (!(VERIFICATION_STATUSES as readonly string[]).includes(q.verification_status)) {
      throw new ServiceError('invalid_value', `verification_status must be one of ${VERIFICATION_STATUSES.join(', ')}`);
    }
    where.add('c.last_verification_status = ?', q.verification_status);
  }
  where.tagsOn('c.credential_id', 'credential_tags', 'credential_id', partner, parseTagFilter(q.and_credential_tags, 'and_credential_tags'), parseTagFilter(q.or_credential_tags, 'or_credential_tags'));
  where.tagsOn('c.job_id', 'job_tags', 'job_id', partner, parseTagFilter(q.and_job_tags, 'and_job_tags'), parseTagFilter(q.or_job_tags, 'or_job_tags'));
  return certificatePage(scope, where, page);
}

/** GET /jobs/<uid>/certificates; the tag filters are the credentials' tags. */
export function listJobCertificates(scope: PartnerScope, jobId: number, query: (PageQuery & TagQuery) | undefined): Page<Certificate> {
  const page = parsePageQuery(query, ['issued_date', 'chain'], 'issued_date');
  const partner = scope.partner.id;
  const where = new Conditions('c.partner_id = ?', partner)
    .add(ISSUED)
    .add('c.job_id = ?', jobId)
    .tagsOn('c.credential_id', 'credential_tags', 'credential_id', partner, parseTagFilter(query?.and_tags, 'and_tags'), parseTagFilter(query?.or_tags, 'or_tags'));
  return certificatePage(scope, where, page);
}

/**
 * A job's issued certificates as credential uid → certificate uid, in one query: what
 * listJobCertificates gives, without building each certificate and its credential.
 */
export function certificateUidsOfJob(scope: PartnerScope, jobId: number): Map<string, string> {
  const rows = cached(
    scope.db,
    `SELECT cr.uid AS credential, c.uid AS certificate FROM certificates c JOIN jobs j ON j.id = c.job_id JOIN credentials cr ON cr.id = c.credential_id
     WHERE c.partner_id = ? AND c.job_id = ? AND ${ISSUED}`,
  ).all(scope.partner.id, jobId) as { credential: string; certificate: string }[];
  return new Map(rows.map((r) => [r.credential, r.certificate]));
}

/** What every proof file of a job shares: its tree, and the dictionary its payloads are stored with. */
interface JobProofParts {
  tree: MerkleTree;
  dictionary: Buffer | null;
}

// Keep the last few jobs' parts rather than reading a 100,000-leaf tree again for every download.
// Per database: two data directories open in one process (the app's second machine, tests) hold
// the same Partner and the same job ids, and must never read each other's trees or dictionaries.
const jobParts = new WeakMap<object, Map<number, JobProofParts>>();

function jobPartsOf(scope: PartnerScope, jobId: number): JobProofParts {
  let ofDb = jobParts.get(scope.db);
  if (!ofDb) jobParts.set(scope.db, (ofDb = new Map()));
  let parts = ofDb.get(jobId);
  if (!parts) {
    const row = cached(scope.db, 'SELECT merkle_tree, payload_dictionary FROM job_proof_parts WHERE job_id = ?').get(jobId) as { merkle_tree: Buffer; payload_dictionary: Buffer | null };
    parts = { tree: deserializeMerkleTree(row.merkle_tree), dictionary: row.payload_dictionary };
    if (ofDb.size >= 8) ofDb.delete(ofDb.keys().next().value!);
    ofDb.set(jobId, parts);
  }
  return parts;
}

/** The explorer URL of a transaction on the engine, if it has an explorer. */
export function explorerTxUrl(engine: EngineConfig, hash: string): string | null {
  return engine.explorer_tx_url ? engine.explorer_tx_url.replace('{tx}', hash) : null;
}

/** What a proof says of the chain's identity (proofChainIdentity), per engine and chain id. */
export type ChainIdentities = Map<string, { genesis_hash?: string; installation_id?: string }>;

/**
 * The proof file of an issued certificate: everything a verifier needs, nothing from our
 * database. `identities`: a cache of the chain identities for proofs built together (each
 * look-up reads the installation record from disk).
 */
export function buildProofFile(scope: PartnerScope, row: CertificateRow, identities?: ChainIdentities): ProofFile {
  const engine = scope.catalog.recorded(row.engine);
  const chainId = engine.chain_id ?? 0;
  const key = `${engine.id}\0${chainId}`;
  let identity = identities?.get(key);
  if (!identity) {
    identity = scope.issuing.proofChainIdentity(engine.id, chainId);
    identities?.set(key, identity);
  }
  const { tree, dictionary } = jobPartsOf(scope, row.job_id);
  return {
    format: PROOF_FORMAT,
    certificate: JSON.parse(payloadText(row.payload, dictionary)) as ProofFile['certificate'],
    issued_date: formatDate(row.issued_date!),
    hash_function: 'SHA-256',
    leaf: row.leaf,
    merkle_path: merklePath(tree, row.leaf_index).map((b) => b.toString('hex')),
    root: row.root!.replace(/^0x/, ''),
    chain: {
      engine: engine.id,
      chain_id: engine.chain_id ?? 0,
      transaction_id: row.tx_hash!,
      registry_address: row.registry!,
      explorer_tx_url: explorerTxUrl(engine, row.tx_hash!),
      ...identity,
    },
    issuer: { public_key: row.public_key!, signature_scheme: 'Ed25519', signature: row.signature },
  };
}

/** Records the outcome of a verification on the certificate (`last_verification`). */
export function recordVerification(scope: PartnerScope, certificateId: number, status: VerificationStatus, at: number): void {
  cached(scope.db, 'UPDATE certificates SET last_verification_status = ?, last_verification_date = ? WHERE id = ?').run(status, at, certificateId);
}
