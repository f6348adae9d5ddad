import { describe, expect, it } from 'vitest';
import { fileSize } from './file-size.js';

describe('fileSize', () => {
  it('says bytes for a small file instead of 0.0 KB', () => {
    expect(fileSize(0)).toEqual({ unit: 'bytes', amount: 0 });
    expect(fileSize(812)).toEqual({ unit: 'bytes', amount: 812 });
    expect(fileSize(1023)).toEqual({ unit: 'bytes', amount: 1023 });
  });

  it('gives one decimal below 10 and none above', () => {
    expect(fileSize(4300)).toEqual({ unit: 'kb', amount: 4.2 });
    expect(fileSize(312 * 1024 + 100)).toEqual({ unit: 'kb', amount: 312 });
    expect(fileSize(1.3 * 1024 * 1024)).toEqual({ unit: 'mb', amount: 1.3 });
    expect(fileSize(5 * 1024 ** 3)).toEqual({ unit: 'gb', amount: 5 });
  });

  it('moves up a unit when rounding reaches 1024', () => {
    expect(fileSize(1024 * 1024 - 10)).toEqual({ unit: 'mb', amount: 1 });
  });
});
