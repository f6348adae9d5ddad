import { describe, expect, it } from 'vitest';
import { orderByLinks } from './link-order.js';

describe('orderByLinks', () => {
  it('puts every row after the rows it links to, keeping the given order otherwise', () => {
    const plan = orderByLinks(
      [
        { key: 'c', links: ['b'] },
        { key: 'a', links: [] },
        { key: 'b', links: ['a', '018f0000-0000-7000-8000-000000000001'] },
        { key: 'd', links: [] },
      ],
      (link) => link === '018f0000-0000-7000-8000-000000000001',
    );
    expect(plan.order).toEqual(['a', 'd', 'b', 'c']);
    expect(plan.errors.size).toBe(0);
  });

  it('refuses a link to nothing, a circle, a link to itself, and every row depending on them', () => {
    const plan = orderByLinks(
      [
        { key: 'lost', links: ['nowhere'] },
        { key: 'x', links: ['y'] },
        { key: 'y', links: ['x'] },
        { key: 'self', links: ['self'] },
        { key: 'after-lost', links: ['lost'] },
        { key: 'after-after', links: ['after-lost'] },
        { key: 'after-circle', links: ['x'] },
        { key: 'fine', links: [] },
      ],
      () => false,
    );
    expect(plan.order).toEqual(['fine']);
    expect(plan.errors.get('lost')).toMatchObject({ id: 'missing_credential' });
    expect(plan.errors.get('x')?.message).toMatch(/circle/);
    expect(plan.errors.get('y')?.message).toMatch(/circle/);
    expect(plan.errors.get('self')?.message).toMatch(/itself/);
    expect(plan.errors.get('after-lost')?.message).toMatch(/cannot be created/);
    expect(plan.errors.get('after-after')?.message).toMatch(/cannot be created/);
    expect(plan.errors.has('after-circle')).toBe(true);
  });
});
