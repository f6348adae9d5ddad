/**
 * The token-signing public keys of the `serve` nodes sharing this database (main/api/auth/
 * local-tokens.ts): each node publishes its own, so any node verifies a token any other issued.
 * Public halves only; the private keys never leave their node's memory.
 */
import type { Db } from './database.js';
import { cached } from './list-query.js';

export interface PublishedTokenKey {
  kid: string;
  /** The public JWK, as JSON. */
  publicJwk: string;
  /** The `iss` of the tokens it signs. */
  issuer: string;
}

/** The keys' columns as PublishedTokenKey's fields (quoted: PostgreSQL folds unquoted names to lower case). */
const SELECT_KEYS = 'SELECT kid, public_jwk AS "publicJwk", issuer FROM token_keys';

/** The token keys of one database, by the wall clock (a token's expiry is wall-clock time). */
export class TokenKeyRegistry {
  constructor(private readonly db: Db) {}

  /** Publishes (or keeps publishing) a key until `expires`; drops the keys that have expired. */
  publish(key: PublishedTokenKey, expires: number): void {
    cached(this.db, 'DELETE FROM token_keys WHERE expires <= ?').run(Date.now());
    cached(
      this.db,
      'INSERT INTO token_keys (kid, public_jwk, issuer, expires) VALUES (?, ?, ?, ?) ON CONFLICT (kid) DO UPDATE SET expires = excluded.expires',
    ).run(key.kid, key.publicJwk, key.issuer, expires);
  }

  /** A key that has not expired, by its id. */
  find(kid: string): PublishedTokenKey | undefined {
    return cached(this.db, `${SELECT_KEYS} WHERE kid = ? AND expires > ?`).get(kid, Date.now()) as PublishedTokenKey | undefined;
  }

  /** Every key that has not expired (the realm's key set). */
  list(): PublishedTokenKey[] {
    return cached(this.db, `${SELECT_KEYS} WHERE expires > ? ORDER BY kid`).all(Date.now()) as PublishedTokenKey[];
  }

  /** Ends a key's life at `expires` (its node stops; the tokens it signed stay good until then). */
  retire(kid: string, expires: number): void {
    cached(this.db, 'UPDATE token_keys SET expires = ? WHERE kid = ? AND expires > ?').run(expires, kid, expires);
  }
}
