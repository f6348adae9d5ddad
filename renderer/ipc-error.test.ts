import { describe, expect, it } from 'vitest';
import { encodeIpcError, ServiceError } from '../common/errors.js';
import { errorSentence } from './ipc-error.js';

describe('errorSentence', () => {
  it('shows the message and the error id of an error that crossed the IPC bridge', () => {
    const crossed = new Error(encodeIpcError(new ServiceError('missing_credential', 'No credential abc.')));
    expect(errorSentence(crossed)).toBe('No credential abc. (missing_credential)');
  });

  it('turns anything else into the internal error sentence, never a stack', () => {
    const text = errorSentence(new TypeError('x is undefined'));
    expect(text).toMatch(/\(internal_error\)$/);
    expect(text).not.toMatch(/TypeError|at /);
  });
});
