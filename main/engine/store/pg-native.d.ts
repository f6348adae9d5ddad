/**
 * Type declarations for the parts of pg-native (node-postgres's libpq binding) that PostgresDb
 * calls: its synchronous queries (the package ships plain JavaScript without types).
 */
declare module 'pg-native' {
  /** The libpq connection under a client. */
  export interface Libpq {
    /** The fields of the last result's error (sqlState, messagePrimary, ...). */
    resultErrorFields(): Record<string, string> | undefined;
    /** The number of rows the last command touched, as text ('' when none applies). */
    cmdTuples(): string;
    /** Closes the connection. */
    finish(): void;
  }

  export interface TypeParsers {
    getTypeParser(oid: number, format?: string): (value: string) => unknown;
  }

  export default class Client {
    constructor(options?: { types?: TypeParsers; arrayMode?: boolean });
    readonly pq: Libpq;
    connectSync(connectionString?: string): void;
    querySync(text: string, values?: (string | null)[]): Record<string, unknown>[];
    prepareSync(statementName: string, text: string, parameterCount: number): void;
    executeSync(statementName: string, values: (string | null)[]): Record<string, unknown>[];
    end(callback?: () => void): void;
  }
}
