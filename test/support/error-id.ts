import { isServiceError, type ErrorId } from '../../common/errors.js';

/** The spec's error id `fn` throws, or 'no error'; anything thrown that is not a ServiceError fails the test. */
export function errorIdOf(fn: () => unknown): ErrorId | 'no error' {
  try {
    fn();
    return 'no error';
  } catch (error) {
    if (!isServiceError(error)) throw error;
    return error.id;
  }
}
