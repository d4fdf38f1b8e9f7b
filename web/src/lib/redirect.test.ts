import { describe, expect, it } from 'vitest';
import { safeRedirect } from './redirect';

describe('safeRedirect', () => {
  it.each([
    ['/apps/rules', '/apps/rules'],
    ['/apps/devices?tag=2#map', '/apps/devices?tag=2#map'],
    [null, '/home'],
    ['', '/home'],
    ['apps/rules', '/home'],
    ['//evil.example/x', '/home'],
    ['/\\evil.example', '/home'],
    ['https://evil.example/', '/home'],
    ['javascript:alert(1)', '/home'],
    ['/login?redirect=%2Fapps', '/home'],
  ])('%s → %s', (target, expected) => {
    expect(safeRedirect(target, '/home')).toBe(expected);
  });
});
