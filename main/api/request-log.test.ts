import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { operatorLine, requestIdOf } from './request-log.js';
import { isLoopbackHost } from './tls.js';

const withId = (id: string | string[] | undefined) => ({ headers: { 'x-request-id': id } }) as unknown as IncomingMessage;

describe('requestIdOf', () => {
  it("takes the client's id when well-formed", () => {
    expect(requestIdOf(withId('trace-abc.123'))).toBe('trace-abc.123');
    expect(requestIdOf(withId('Root=1-5759e988-bd862e3fe1be46a994272793'))).toBe('Root=1-5759e988-bd862e3fe1be46a994272793');
  });

  it('makes a new one for none, a repeated header, spaces, quotes or more than 128 characters', () => {
    for (const sent of [undefined, ['a', 'b'], 'has space', 'quote"d', 'x'.repeat(129), '']) {
      expect(requestIdOf(withId(sent))).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
  });
});

describe('operatorLine', () => {
  it('is one JSON line in json mode, even for a message with newlines (a stack)', () => {
    const line = operatorLine('json', 'error', 'boom\n    at somewhere');
    expect(line).not.toContain('\n');
    expect(JSON.parse(line)).toMatchObject({ level: 'error', msg: 'boom\n    at somewhere' });
    expect(operatorLine('text', 'info', 'as is')).toBe('as is');
  });
});

describe('isLoopbackHost', () => {
  it('is true only for addresses this machine alone reaches', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', '::1', '[::1]', 'localhost']) expect(isLoopbackHost(host)).toBe(true);
    for (const host of ['0.0.0.0', '::', '10.0.0.5', '192.168.1.2', 'issuer.example.org', '127.0.0.1.nip.io']) expect(isLoopbackHost(host)).toBe(false);
  });
});
