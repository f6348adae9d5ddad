import { describe, expect, it } from 'vitest';
import { clampPaneWidth } from './pane-width.js';

describe('side panel width', () => {
  const limits = { min: 280, maxShare: 0.6 };
  it('keeps a width between the minimum and the share of the window', () => {
    expect(clampPaneWidth(430, 1280, limits)).toBe(430);
    expect(clampPaneWidth(100, 1280, limits)).toBe(280);
    expect(clampPaneWidth(5000, 1280, limits)).toBe(768);
  });

  it('gives the minimum in a window too small for both', () => {
    expect(clampPaneWidth(400, 300, limits)).toBe(280);
  });
});
