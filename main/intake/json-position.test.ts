import { describe, expect, it } from 'vitest';
import { jsonSyntaxError } from './json-position.js';

describe('jsonSyntaxError', () => {
  it('says which closing mark was expected, from the container the error is in', () => {
    expect(jsonSyntaxError('{"a": [1, 2}')).toEqual({ offset: 11, message: 'expected "," or "]", found "}"' });
    expect(jsonSyntaxError('{"a": {"b": 1]')).toEqual({ offset: 13, message: 'expected "," or "}", found "]"' });
    expect(jsonSyntaxError('{"a": 1 "b": 2}')).toEqual({ offset: 8, message: 'expected "," or "}", found "\\""' });
  });

  it('points at the character inside a string that breaks it', () => {
    expect(jsonSyntaxError('{"a": "x\ny"}')).toEqual({ offset: 8, message: 'a line break or control character inside a string' });
    expect(jsonSyntaxError('{"a": "x\ty"}')).toEqual({ offset: 8, message: 'a line break or control character inside a string' });
    expect(jsonSyntaxError('{"a":"ok \\q"}')).toEqual({ offset: 9, message: 'a bad escape in a string' });
    expect(jsonSyntaxError('{"a": "ok\\n\\u12"}')).toEqual({ offset: 11, message: 'a bad \\u escape' });
  });

  it('refuses what strict JSON does not have: comments, trailing commas, bare words', () => {
    expect(jsonSyntaxError('// note\n{}')).toEqual({ offset: 0, message: 'unexpected "/"' });
    expect(jsonSyntaxError('[1,]')).toEqual({ offset: 3, message: 'unexpected "]"' });
    expect(jsonSyntaxError('{"a": NaN}')).toEqual({ offset: 6, message: 'unexpected "N"' });
    expect(jsonSyntaxError('{} 1')).toEqual({ offset: 3, message: 'unexpected "1" after the JSON value' });
  });
});
