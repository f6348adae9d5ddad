/**
 * Versioned schema migrations. Each entry moves the database from version `index` to
 * `index + 1` (PRAGMA user_version). Never edit a migration that has shipped: add one.
 *
 * Dates are stored as epoch milliseconds (INTEGER) so range filters and sorting use indexes;
 * they are formatted as ISO 8601 only on the way out. Every table that a Partner owns
 * carries partner_id, and every index used by a listing starts with it, or with a uid (which
 * names one Partner's row) when the listing is of that one credential.
 */
/**
 * How the activity log stores a uid (the SQL expression `uid`, evaluated more than once: give
 * a column): a uid in its canonical form (36 characters, lower-case hex in 8-4-4-4-12 groups,
 * what the engine makes) as its 16 bytes, anything else as the very text it is, so that every
 * value reads back as it was written (activity.ts). Part of the stored format: never change it.
 */
export function storedUid(uid: string): string {
  // The pattern fixes the length and the dashes; 16 bytes from the rest, with the dashes
  // skipped, leaves no room for anything but hex digits. Cheaper than a GLOB of the form.
  const bytes = `unhex(${uid}, '-')`;
  return `CASE WHEN ${uid} LIKE '________-____-____-____-____________' AND ${uid} = lower(${uid}) AND length(${bytes}) = 16 THEN ${bytes} ELSE ${uid} END`;
}

export const MIGRATIONS: readonly string[] = [
  /* 1: record keeping (engine part 1) */ `
  CREATE TABLE partners (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    client_id TEXT NOT NULL UNIQUE,
    secret_hash TEXT NOT NULL,
    issuing_interval_s INTEGER NOT NULL CHECK (issuing_interval_s > 0),
    created_date INTEGER NOT NULL
  );

  CREATE TABLE files (
    id INTEGER PRIMARY KEY,
    partner_id TEXT NOT NULL REFERENCES partners(id),
    file_hash TEXT NOT NULL,
    file_type TEXT,
    size INTEGER NOT NULL,
    uploaded_date INTEGER NOT NULL,
    -- When it last became unused by any credential (NULL while a credential uses it): an
    -- unused file is deleted an hour later. Kept apart so uploaded_date never moves.
    unused_since INTEGER,
    UNIQUE (partner_id, file_hash)
  );
  CREATE INDEX files_by_partner_date ON files (partner_id, uploaded_date, id);
  CREATE INDEX files_unused ON files (unused_since) WHERE unused_since IS NOT NULL;
  CREATE INDEX files_by_hash ON files (file_hash);

  CREATE TABLE credentials (
    id INTEGER PRIMARY KEY,
    uid TEXT NOT NULL UNIQUE,
    partner_id TEXT NOT NULL REFERENCES partners(id),
    title TEXT NOT NULL,
    metadata TEXT NOT NULL,
    upload_date INTEGER NOT NULL,
    expiry_date INTEGER,
    -- The tags in order, as a JSON array: what a read returns. credential_tags mirrors them
    -- for filtering only, so reading tags needs no second index.
    tags TEXT NOT NULL DEFAULT '[]'
  );
  -- Pages in creation order (id) seek straight to the Partner's rows in order; the upload
  -- date filter scans the same range, covered.
  CREATE INDEX credentials_by_partner ON credentials (partner_id, id, upload_date);
  CREATE INDEX credentials_by_title ON credentials (partner_id, title, id);

  CREATE TABLE credential_files (
    credential_id INTEGER NOT NULL REFERENCES credentials(id) ON DELETE CASCADE,
    file_id INTEGER NOT NULL REFERENCES files(id),
    position INTEGER NOT NULL,
    PRIMARY KEY (credential_id, file_id)
  ) WITHOUT ROWID;
  CREATE INDEX credential_files_by_file ON credential_files (file_id);

  CREATE TABLE credential_links (
    credential_id INTEGER NOT NULL REFERENCES credentials(id) ON DELETE CASCADE,
    linked_id INTEGER NOT NULL REFERENCES credentials(id),
    position INTEGER NOT NULL,
    PRIMARY KEY (credential_id, linked_id)
  ) WITHOUT ROWID;
  CREATE INDEX credential_links_by_linked ON credential_links (linked_id);

  -- The tag filter index: (partner, tag) → credential ids in creation order. Kept in step
  -- with credentials.tags by the engine (no foreign key: it would need an index of its own).
  CREATE TABLE credential_tags (
    partner_id TEXT NOT NULL,
    tag TEXT NOT NULL,
    credential_id INTEGER NOT NULL,
    PRIMARY KEY (partner_id, tag, credential_id)
  ) WITHOUT ROWID;

  CREATE TABLE jobs (
    id INTEGER PRIMARY KEY,
    uid TEXT NOT NULL UNIQUE,
    partner_id TEXT NOT NULL REFERENCES partners(id),
    engine TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('scheduled', 'started', 'unconfirmed', 'finished', 'failed')),
    created_date INTEGER NOT NULL,
    start_date INTEGER,
    issued_date INTEGER,
    finished_date INTEGER,
    failed_date INTEGER,
    scheduled_date INTEGER,
    tags TEXT NOT NULL DEFAULT '[]'
  );
  CREATE INDEX jobs_by_partner ON jobs (partner_id, id, created_date);
  CREATE INDEX jobs_by_status ON jobs (partner_id, status);
  -- At most one open (scheduled) job per Partner and engine: the one new credentials join.
  CREATE UNIQUE INDEX jobs_one_scheduled ON jobs (partner_id, engine) WHERE status = 'scheduled';

  CREATE TABLE job_tags (
    partner_id TEXT NOT NULL,
    tag TEXT NOT NULL,
    job_id INTEGER NOT NULL,
    PRIMARY KEY (partner_id, tag, job_id)
  ) WITHOUT ROWID;

  -- Which credentials a job carries. active = 0 once a failed job released the credential;
  -- the row stays so the failed job still lists what it carried.
  CREATE TABLE job_credentials (
    job_id INTEGER NOT NULL REFERENCES jobs(id),
    credential_id INTEGER NOT NULL REFERENCES credentials(id) ON DELETE CASCADE,
    engine TEXT NOT NULL,
    active INTEGER NOT NULL DEFAULT 1,
    PRIMARY KEY (job_id, credential_id)
  ) WITHOUT ROWID;
  CREATE INDEX job_credentials_by_credential ON job_credentials (credential_id);
  -- The spec's rule 1: a credential is scheduled or issued at most once per engine.
  CREATE UNIQUE INDEX job_credentials_once_per_engine ON job_credentials (credential_id, engine) WHERE active = 1;
  `,
  /* 2: issuing on a chain (engine part 2) */ `
  -- The Partner's public identities; the private keys live only in the SecretStore.
  CREATE TABLE partner_keys (
    partner_id TEXT PRIMARY KEY REFERENCES partners(id),
    chain_address TEXT NOT NULL,
    signing_public_key TEXT NOT NULL
  );

  -- Every transaction we sign, stored before it is broadcast, so a crash at any point
  -- resumes with the same signed bytes: a purpose never gets a second nonce.
  CREATE TABLE chain_txs (
    id INTEGER PRIMARY KEY,
    engine TEXT NOT NULL,
    sender TEXT NOT NULL,
    nonce INTEGER NOT NULL,
    purpose TEXT NOT NULL CHECK (purpose IN ('deploy', 'issue', 'revoke')),
    raw TEXT NOT NULL,
    hash TEXT NOT NULL UNIQUE,
    state TEXT NOT NULL CHECK (state IN ('signed', 'sent', 'mined', 'reverted', 'dropped')),
    block_number INTEGER,
    mined_date INTEGER,
    contract_address TEXT,
    created_date INTEGER NOT NULL
  );
  -- A nonce is used once per account and chain; a transaction the chain refused (dropped)
  -- never used its nonce, which the next transaction then takes.
  CREATE UNIQUE INDEX chain_txs_nonce ON chain_txs (engine, sender, nonce) WHERE state <> 'dropped';

  -- One registry contract per Partner and engine, deployed by the Partner's account.
  CREATE TABLE registries (
    partner_id TEXT NOT NULL REFERENCES partners(id),
    engine TEXT NOT NULL,
    deploy_tx INTEGER NOT NULL REFERENCES chain_txs(id),
    address TEXT,
    PRIMARY KEY (partner_id, engine)
  );

  ALTER TABLE jobs ADD COLUMN root TEXT;
  ALTER TABLE jobs ADD COLUMN merkle_tree BLOB;
  ALTER TABLE jobs ADD COLUMN issue_tx INTEGER REFERENCES chain_txs(id);
  ALTER TABLE jobs ADD COLUMN failure TEXT;

  -- One certificate per issued credential and engine, made when its job starts; a failed
  -- job's certificates are deleted with the release of its credentials.
  CREATE TABLE certificates (
    id INTEGER PRIMARY KEY,
    uid TEXT NOT NULL UNIQUE,
    partner_id TEXT NOT NULL REFERENCES partners(id),
    credential_id INTEGER NOT NULL REFERENCES credentials(id),
    job_id INTEGER NOT NULL REFERENCES jobs(id),
    engine TEXT NOT NULL,
    leaf_index INTEGER NOT NULL,
    leaf TEXT NOT NULL,
    payload TEXT NOT NULL,
    signature TEXT NOT NULL,
    revoke_tx INTEGER REFERENCES chain_txs(id),
    revoked_date INTEGER,
    last_verification_status TEXT,
    last_verification_date INTEGER,
    UNIQUE (credential_id, engine)
  );
  CREATE INDEX certificates_by_job ON certificates (job_id, leaf_index);
  CREATE INDEX certificates_by_partner ON certificates (partner_id, id);
  CREATE INDEX certificates_by_leaf ON certificates (leaf);
  `,
  /* 3: full-text search of the app's records view */ `
  -- Words of each credential's title and of its metadata's values (not its keys), for the
  -- records view's search box. Contentless: the text lives in credentials already; the index
  -- alone is kept (contentless_delete lets a deleted credential leave it). \`partner\` holds
  -- one token naming the owner ('p' || hex(partner_id)), so a Partner's search is answered by
  -- the index alone: counted and paged without touching credentials. detail = column (no
  -- word positions: searches are words, never phrases) and no prefix index keep creating
  -- credentials in bulk at ~80% of its speed without the index (prefix indexes cost another
  -- half); a prefix query reads the few terms sharing the prefix instead.
  CREATE VIRTUAL TABLE credentials_fts USING fts5(
    partner, title, meta, content = '', contentless_delete = 1, detail = column, tokenize = 'unicode61 remove_diacritics 2'
  );
  -- Kept in step by triggers, so every insert path (API, ingest, app) is covered.
  CREATE TRIGGER credentials_fts_insert AFTER INSERT ON credentials BEGIN
    INSERT INTO credentials_fts (rowid, partner, title, meta) VALUES (
      new.id, 'p' || hex(new.partner_id), new.title,
      (SELECT group_concat(value, ' ') FROM json_tree(new.metadata) WHERE type NOT IN ('object', 'array'))
    );
  END;
  CREATE TRIGGER credentials_fts_delete AFTER DELETE ON credentials BEGIN
    DELETE FROM credentials_fts WHERE rowid = old.id;
  END;
  -- Credentials are never edited (the spec), but should one ever be, its words follow.
  CREATE TRIGGER credentials_fts_update AFTER UPDATE OF partner_id, title, metadata ON credentials BEGIN
    DELETE FROM credentials_fts WHERE rowid = old.id;
    INSERT INTO credentials_fts (rowid, partner, title, meta) VALUES (
      new.id, 'p' || hex(new.partner_id), new.title,
      (SELECT group_concat(value, ' ') FROM json_tree(new.metadata) WHERE type NOT IN ('object', 'array'))
    );
  END;
  -- Backfill what existed before this migration.
  INSERT INTO credentials_fts (rowid, partner, title, meta)
    SELECT id, 'p' || hex(partner_id), title, (SELECT group_concat(value, ' ') FROM json_tree(credentials.metadata) WHERE type NOT IN ('object', 'array'))
    FROM credentials;
  `,
  /* 4: certificates stored compactly (a credential's certificate in a compact form on disk) */ `
  -- What is per job is stored once per job: the tree (already), and the dictionary its
  -- certificates' payloads are compressed with — the job's first payload (payload-codec.ts).
  ALTER TABLE jobs ADD COLUMN payload_dictionary BLOB;
  UPDATE jobs SET payload_dictionary = (SELECT CAST(c.payload AS BLOB) FROM certificates c WHERE c.job_id = jobs.id ORDER BY c.leaf_index LIMIT 1);

  -- Leaves and signatures as bytes rather than hex (half the room), payloads as raw DEFLATE
  -- with their job's dictionary: cold (read for a proof file, never queried), and most of a
  -- certificate's bytes. Proof files still carry the very bytes that were signed. The index
  -- on leaves goes: nothing looks certificates up by leaf.
  CREATE TABLE certificates_compact (
    id INTEGER PRIMARY KEY,
    uid TEXT NOT NULL UNIQUE,
    partner_id TEXT NOT NULL REFERENCES partners(id),
    credential_id INTEGER NOT NULL REFERENCES credentials(id),
    job_id INTEGER NOT NULL REFERENCES jobs(id),
    engine TEXT NOT NULL,
    leaf_index INTEGER NOT NULL,
    -- SHA-256 of the payload, 32 bytes
    leaf BLOB NOT NULL,
    -- the canonical JSON, raw DEFLATE with jobs.payload_dictionary
    payload BLOB NOT NULL,
    -- Ed25519 over the leaf, 64 bytes
    signature BLOB NOT NULL,
    revoke_tx INTEGER REFERENCES chain_txs(id),
    revoked_date INTEGER,
    last_verification_status TEXT,
    last_verification_date INTEGER,
    UNIQUE (credential_id, engine)
  );
  INSERT INTO certificates_compact
    SELECT c.id, c.uid, c.partner_id, c.credential_id, c.job_id, c.engine, c.leaf_index, unhex(c.leaf),
      proofdesk_compress_payload(c.payload, j.payload_dictionary), unhex(c.signature),
      c.revoke_tx, c.revoked_date, c.last_verification_status, c.last_verification_date
    FROM certificates c JOIN jobs j ON j.id = c.job_id;
  DROP TABLE certificates;
  ALTER TABLE certificates_compact RENAME TO certificates;
  CREATE INDEX certificates_by_job ON certificates (job_id, leaf_index);
  CREATE INDEX certificates_by_partner ON certificates (partner_id, id);
  `,
  /* 5: a mined transaction followed until final, and after */ `
  -- The block that holds a mined transaction, as last seen: a reorganisation that moves the
  -- transaction shows as another hash (reconcile-chain.ts). NULL until first followed.
  ALTER TABLE chain_txs ADD COLUMN block_hash TEXT;
  -- How far its block is towards final, as last seen (the job detail shows it): the blocks
  -- including it, and the depth that makes it final (NULL: the chain's finalized tag decides).
  ALTER TABLE chain_txs ADD COLUMN confirmations INTEGER;
  ALTER TABLE chain_txs ADD COLUMN confirmations_required INTEGER;
  -- The jobs finished lately, re-checked once per block while the scheduler runs (chain-watch.ts).
  CREATE INDEX jobs_finished_by_date ON jobs (finished_date) WHERE status = 'finished';
  `,
  /* 6: sending on public chains: replacement variants, and why a job waits */ `
  -- Every signed variant of a transaction (the same nonce, rising fees), stored before it is
  -- broadcast; chain_txs holds the current one, or the one that was mined.
  CREATE TABLE chain_tx_variants (
    id INTEGER PRIMARY KEY,
    tx_id INTEGER NOT NULL REFERENCES chain_txs(id),
    raw TEXT NOT NULL,
    hash TEXT NOT NULL UNIQUE,
    -- the head block when it was last broadcast: replaced once it waits too many blocks
    sent_block INTEGER,
    -- what it offers per gas, in wei (decimal text): the max fee (a legacy transaction's gas
    -- price) and the tip (NULL for legacy); shown with the job
    max_fee_per_gas TEXT,
    max_priority_fee_per_gas TEXT,
    created_date INTEGER NOT NULL
  );
  CREATE INDEX chain_tx_variants_by_tx ON chain_tx_variants (tx_id, id);
  -- Why a job is not moving (an account short of funds, fees above the cap); NULL when it is.
  ALTER TABLE jobs ADD COLUMN waiting TEXT;
  `,
  /* 7: the activity log: what was done, when, by whom, on which chain */ `
  -- One row per thing done to a credential, job or certificate (activity.ts), written in the
  -- transaction of the change it records, so neither is ever on disk without the other.
  -- Append-only: the triggers below refuse every UPDATE and DELETE. No foreign keys: a row
  -- outlives what it names (an unscheduled credential is deleted; its history is not).
  CREATE TABLE activity (
    id INTEGER PRIMARY KEY,
    partner_id TEXT NOT NULL,
    date INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('created', 'scheduled', 'unscheduled', 'tagged', 'issued', 'revoked', 'exported', 'keys_exported', 'keys_restored')),
    -- the OS user in the app and the CLI, the OAuth client id over REST, 'scheduler' for a job it started
    actor TEXT NOT NULL,
    engine TEXT,
    credential_uid TEXT,
    job_uid TEXT,
    certificate_uid TEXT,
    -- a short JSON object (a transaction hash, the tags, a format), or NULL
    detail TEXT
  );
  CREATE INDEX activity_by_partner ON activity (partner_id, id);
  CREATE INDEX activity_by_date ON activity (partner_id, date, id);
  CREATE INDEX activity_by_credential ON activity (partner_id, credential_uid, id) WHERE credential_uid IS NOT NULL;
  CREATE INDEX activity_by_job ON activity (partner_id, job_uid, id) WHERE job_uid IS NOT NULL;
  CREATE TRIGGER activity_no_update BEFORE UPDATE ON activity BEGIN
    SELECT RAISE(ABORT, 'The activity log is append-only: its rows are never changed');
  END;
  CREATE TRIGGER activity_no_delete BEFORE DELETE ON activity BEGIN
    SELECT RAISE(ABORT, 'The activity log is append-only: its rows are never deleted');
  END;

  -- Who started a job at once (NULL: the scheduler), and who asked for a certificate's
  -- revocation: the chain settles both later, and the triggers below log them then, in the
  -- statement that records the chain's answer.
  ALTER TABLE jobs ADD COLUMN started_by TEXT;
  ALTER TABLE certificates ADD COLUMN revoked_by TEXT;
  -- A job's transaction mined: each of its certificates issued, at the block's time. Once per
  -- job and transaction: the same transaction mined again after a chain forgot it (a reset
  -- local chain, reconcile-chain.ts) is the same issuing.
  CREATE TRIGGER activity_issued AFTER UPDATE OF status ON jobs
  WHEN old.status = 'started' AND new.status = 'unconfirmed' AND NOT EXISTS (
    SELECT 1 FROM activity WHERE partner_id = new.partner_id AND job_uid = new.uid AND kind = 'issued'
      AND detail = json_object('transaction', (SELECT hash FROM chain_txs WHERE id = new.issue_tx))
  ) BEGIN
    INSERT INTO activity (partner_id, date, kind, actor, engine, credential_uid, job_uid, certificate_uid, detail)
      SELECT new.partner_id, coalesce(new.issued_date, 0), 'issued', coalesce(new.started_by, 'scheduler'), new.engine, cr.uid, new.uid, c.uid,
        json_object('transaction', (SELECT hash FROM chain_txs WHERE id = new.issue_tx))
      FROM certificates c JOIN credentials cr ON cr.id = c.credential_id
      WHERE c.job_id = new.id ORDER BY c.leaf_index;
  END;
  -- A revocation mined: the certificate revoked, at the block's time; once per transaction, as above.
  CREATE TRIGGER activity_revoked AFTER UPDATE OF revoked_date ON certificates
  WHEN old.revoked_date IS NULL AND new.revoked_date IS NOT NULL AND NOT EXISTS (
    SELECT 1 FROM activity WHERE partner_id = new.partner_id AND credential_uid = (SELECT uid FROM credentials WHERE id = new.credential_id)
      AND kind = 'revoked' AND detail = json_object('transaction', (SELECT hash FROM chain_txs WHERE id = new.revoke_tx))
  ) BEGIN
    INSERT INTO activity (partner_id, date, kind, actor, engine, credential_uid, job_uid, certificate_uid, detail)
      VALUES (new.partner_id, new.revoked_date, 'revoked', coalesce(new.revoked_by, 'engine'), new.engine,
        (SELECT uid FROM credentials WHERE id = new.credential_id), (SELECT uid FROM jobs WHERE id = new.job_id), new.uid,
        json_object('transaction', (SELECT hash FROM chain_txs WHERE id = new.revoke_tx)));
  END;
  `,
  /* 8: Bitstring Status Lists: where each certificate's revocation bit is published */ `
  -- The URL at which this data directory's \`serve\` is reached from outside (serve --public-url):
  -- with one, every Verifiable Credential exported names its status list there. One row or none.
  CREATE TABLE status_publication (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    public_url TEXT NOT NULL
  );
  -- A Partner's status lists, numbered from 1. A list is published under the public URL it was
  -- opened with, for ever: a credential names its list's URL, so the URL may not move under it.
  -- \`assigned\` counts the positions handed out (never reused); \`revision\` moves whenever a bit of
  -- the list changes, so the signed list is made again only then.
  CREATE TABLE status_lists (
    partner_id TEXT NOT NULL REFERENCES partners(id),
    list INTEGER NOT NULL CHECK (list >= 1),
    public_url TEXT NOT NULL,
    assigned INTEGER NOT NULL DEFAULT 0,
    revision INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (partner_id, list)
  ) WITHOUT ROWID;
  -- A certificate's position in one of its Partner's lists: assigned at its first export as a
  -- credential under a public URL, and kept (the credential is signed with it).
  CREATE TABLE status_entries (
    certificate_id INTEGER PRIMARY KEY REFERENCES certificates(id) ON DELETE CASCADE,
    partner_id TEXT NOT NULL,
    list INTEGER NOT NULL,
    list_index INTEGER NOT NULL,
    UNIQUE (partner_id, list, list_index),
    FOREIGN KEY (partner_id, list) REFERENCES status_lists(partner_id, list)
  );
  -- A certificate's bit is its revocation on chain (revoked_date), read when the list is made:
  -- the statement that records the chain's answer (or undoes it, reconcile-chain.ts) moves the
  -- list's revision in its own transaction, so the published list and the chain agree.
  CREATE TRIGGER status_list_changed AFTER UPDATE OF revoked_date ON certificates
  WHEN (old.revoked_date IS NULL) <> (new.revoked_date IS NULL) BEGIN
    UPDATE status_lists SET revision = revision + 1
      WHERE (partner_id, list) = (SELECT partner_id, list FROM status_entries WHERE certificate_id = new.id);
  END;
  `,
  `
  -- A Partner's request limits on a live server: requests per second and per UTC day (none
  -- when NULL). Every serve node on this database enforces them together.
  ALTER TABLE partners ADD COLUMN requests_per_second INTEGER CHECK (requests_per_second > 0);
  ALTER TABLE partners ADD COLUMN requests_per_day INTEGER CHECK (requests_per_day > 0);
  -- Requests granted to the nodes in a Partner's current window of each kind ('second', 'day').
  CREATE TABLE request_windows (
    partner_id TEXT NOT NULL REFERENCES partners(id),
    kind TEXT NOT NULL CHECK (kind IN ('second', 'day')),
    starts INTEGER NOT NULL,
    granted INTEGER NOT NULL CHECK (granted >= 0),
    PRIMARY KEY (partner_id, kind)
  ) WITHOUT ROWID;
  `,
  `
  -- The issuing lease: the one process (a serve node, the app, watch) that issues for this
  -- database. Its holder renews it; another process takes it once it has expired, or at once
  -- when the holder was a process of the same node that is gone. \`token\` grows with every new
  -- holder: a fencing token that writes of a holder which lost the lease are checked against.
  CREATE TABLE issuing_lease (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    holder TEXT NOT NULL,
    node TEXT NOT NULL,
    pid INTEGER NOT NULL,
    token INTEGER NOT NULL,
    taken_date INTEGER NOT NULL,
    expires INTEGER NOT NULL
  );
  `,
  `
  -- The public keys the serve nodes sharing this database sign access tokens with (each node
  -- makes its own key pair at start and keeps the private half in memory): a token one node
  -- issued verifies on every node. A key lasts while its node runs, and a token lifetime after.
  CREATE TABLE token_keys (
    kid TEXT PRIMARY KEY,
    public_jwk TEXT NOT NULL,
    issuer TEXT NOT NULL,
    expires INTEGER NOT NULL
  ) WITHOUT ROWID;
  `,
  `
  -- A credential's history is found by its uid alone: a uid names one credential of one
  -- Partner, so the Partner's id (every listing still filters by it) need not be in each key.
  DROP INDEX activity_by_credential;
  CREATE INDEX activity_by_credential ON activity (credential_uid, id) WHERE credential_uid IS NOT NULL;
  `,
  `
  -- A job's Merkle tree and payload dictionary in a row of their own (32 bytes per node: 6 MiB
  -- at 100,000 credentials), read only to build proofs. In the job's row, every change of its
  -- status wrote the tree again, and every read of a column after it walked through it.
  CREATE TABLE job_proof_parts (
    job_id INTEGER PRIMARY KEY REFERENCES jobs(id),
    merkle_tree BLOB,
    payload_dictionary BLOB
  );
  INSERT INTO job_proof_parts (job_id, merkle_tree, payload_dictionary)
    SELECT id, merkle_tree, payload_dictionary FROM jobs WHERE merkle_tree IS NOT NULL OR payload_dictionary IS NOT NULL;
  ALTER TABLE jobs DROP COLUMN merkle_tree;
  ALTER TABLE jobs DROP COLUMN payload_dictionary;
  `,
  `
  -- The activity log compactly: three rows per credential issued, each in four indexes. The
  -- Partner by a small number of its own rather than its 36-character id, and uids as their 16
  -- bytes (activity.ts turns them back into text for the entries it reads). Every row is kept.
  ALTER TABLE partners ADD COLUMN number INTEGER;
  UPDATE partners SET number = rowid;
  CREATE UNIQUE INDEX partners_by_number ON partners (number);
  -- A new Partner takes the next number, whoever inserts it.
  CREATE TRIGGER partners_number AFTER INSERT ON partners WHEN new.number IS NULL BEGIN
    UPDATE partners SET number = (SELECT coalesce(max(number), 0) + 1 FROM partners) WHERE id = new.id;
  END;

  CREATE TABLE activity_compact (
    id INTEGER PRIMARY KEY,
    -- partners.number
    partner INTEGER NOT NULL,
    date INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('created', 'scheduled', 'unscheduled', 'tagged', 'issued', 'revoked', 'exported', 'keys_exported', 'keys_restored')),
    actor TEXT NOT NULL,
    engine TEXT,
    -- each as storedUid keeps it (16 bytes; BLOB affinity keeps any value as it is given), or NULL
    credential_uid BLOB,
    job_uid BLOB,
    certificate_uid BLOB,
    detail TEXT
  );
  INSERT INTO activity_compact
    SELECT id, (SELECT number FROM partners WHERE partners.id = activity.partner_id), date, kind, actor, engine,
      ${storedUid('credential_uid')}, ${storedUid('job_uid')}, ${storedUid('certificate_uid')}, detail
    FROM activity ORDER BY id;
  DROP TRIGGER activity_issued;
  DROP TRIGGER activity_revoked;
  DROP TABLE activity;
  ALTER TABLE activity_compact RENAME TO activity;
  CREATE INDEX activity_by_partner ON activity (partner, id);
  CREATE INDEX activity_by_date ON activity (partner, date, id);
  CREATE INDEX activity_by_credential ON activity (credential_uid, id) WHERE credential_uid IS NOT NULL;
  CREATE INDEX activity_by_job ON activity (partner, job_uid, id) WHERE job_uid IS NOT NULL;
  CREATE TRIGGER activity_no_update BEFORE UPDATE ON activity BEGIN
    SELECT RAISE(ABORT, 'The activity log is append-only: its rows are never changed');
  END;
  CREATE TRIGGER activity_no_delete BEFORE DELETE ON activity BEGIN
    SELECT RAISE(ABORT, 'The activity log is append-only: its rows are never deleted');
  END;
  -- As migration 7's, in the compact columns.
  CREATE TRIGGER activity_issued AFTER UPDATE OF status ON jobs
  WHEN old.status = 'started' AND new.status = 'unconfirmed' AND NOT EXISTS (
    SELECT 1 FROM activity WHERE partner = (SELECT number FROM partners WHERE id = new.partner_id) AND job_uid = ${storedUid('new.uid')}
      AND kind = 'issued' AND detail = json_object('transaction', (SELECT hash FROM chain_txs WHERE id = new.issue_tx))
  ) BEGIN
    INSERT INTO activity (partner, date, kind, actor, engine, credential_uid, job_uid, certificate_uid, detail)
      SELECT (SELECT number FROM partners WHERE id = new.partner_id), coalesce(new.issued_date, 0), 'issued', coalesce(new.started_by, 'scheduler'), new.engine,
        ${storedUid('cr.uid')}, ${storedUid('new.uid')}, ${storedUid('c.uid')}, json_object('transaction', (SELECT hash FROM chain_txs WHERE id = new.issue_tx))
      FROM certificates c JOIN credentials cr ON cr.id = c.credential_id
      WHERE c.job_id = new.id ORDER BY c.leaf_index;
  END;
  CREATE TRIGGER activity_revoked AFTER UPDATE OF revoked_date ON certificates
  WHEN old.revoked_date IS NULL AND new.revoked_date IS NOT NULL AND NOT EXISTS (
    SELECT 1 FROM activity WHERE credential_uid = (SELECT ${storedUid('uid')} FROM credentials WHERE id = new.credential_id)
      AND kind = 'revoked' AND detail = json_object('transaction', (SELECT hash FROM chain_txs WHERE id = new.revoke_tx))
  ) BEGIN
    INSERT INTO activity (partner, date, kind, actor, engine, credential_uid, job_uid, certificate_uid, detail)
      VALUES ((SELECT number FROM partners WHERE id = new.partner_id), new.revoked_date, 'revoked', coalesce(new.revoked_by, 'engine'), new.engine,
        (SELECT ${storedUid('uid')} FROM credentials WHERE id = new.credential_id), (SELECT ${storedUid('uid')} FROM jobs WHERE id = new.job_id),
        ${storedUid('new.uid')}, json_object('transaction', (SELECT hash FROM chain_txs WHERE id = new.revoke_tx)));
  END;
  `,
  /* 15: the search index written by the inserts themselves */ `
  -- New credentials are indexed by the statement that follows their insert in the same
  -- transaction, one for a whole call (search-index.ts), rather than by a trigger per row.
  -- Deletion and the (never used) update keep their triggers: they are rare and one row each.
  DROP TRIGGER credentials_fts_insert;
  `,
  /* 16: the search index kept off the path that creates credentials */ `
  -- Credentials created but not yet in credentials_fts: a create records its ids here (one
  -- statement for the call), and a search, or a long-running process while no job issues,
  -- moves them into the index (search-index.ts). Ids, not a watermark on credentials.id: that
  -- id has no AUTOINCREMENT, so the largest one comes back after a delete.
  CREATE TABLE credentials_unindexed (id INTEGER PRIMARY KEY);
  -- A deleted credential leaves the index, or the queue when it was not indexed yet.
  DROP TRIGGER credentials_fts_delete;
  CREATE TRIGGER credentials_fts_delete AFTER DELETE ON credentials BEGIN
    DELETE FROM credentials_fts WHERE rowid = old.id;
    DELETE FROM credentials_unindexed WHERE id = old.id;
  END;
  -- Should a credential ever be edited (the spec has none), it is indexed again like a new one.
  DROP TRIGGER credentials_fts_update;
  CREATE TRIGGER credentials_fts_update AFTER UPDATE OF partner_id, title, metadata ON credentials BEGIN
    DELETE FROM credentials_fts WHERE rowid = old.id;
    INSERT OR IGNORE INTO credentials_unindexed (id) VALUES (new.id);
  END;
  `,
];
