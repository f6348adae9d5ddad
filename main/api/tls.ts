/**
 * HTTPS for `serve`: the certificate and key files, read and checked as a pair, and what
 * plain HTTP is allowed on. The server reloads the pair on demand (SIGHUP) without dropping a
 * connection; a pair that does not load leaves the one in use.
 */
import { readFileSync } from 'node:fs';
import { createSecureContext } from 'node:tls';

/** Where the server's certificate (PEM, the chain after it) and its private key (PEM) are. */
export interface TlsFiles {
  certFile: string;
  keyFile: string;
}

/** A certificate and key that load together. */
export interface TlsPair {
  cert: Buffer;
  key: Buffer;
}

function readPem(what: string, file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (error) {
    throw new Error(`cannot read the TLS ${what} ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

/**
 * Reads both files and checks that they load as one pair (OpenSSL refuses a key that is not the
 * certificate's), so a server never starts, nor switches, to a pair it cannot serve.
 */
export function readTlsPair(files: TlsFiles): TlsPair {
  const cert = readPem('certificate', files.certFile);
  const key = readPem('key', files.keyFile);
  try {
    createSecureContext({ cert, key });
  } catch (error) {
    throw new Error(`the TLS certificate ${files.certFile} and key ${files.keyFile} do not load as a pair: ${(error as Error).message}`);
  }
  return { cert, key };
}

/** True for a bind address only this machine can reach: 127.0.0.0/8, ::1, localhost. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  return bare === 'localhost' || bare === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare);
}
