import { describe, expect, it } from 'vitest';
import { contactTooLong, defaultContact, MAX_SHOT_BYTES, MAX_TEXT, shotProblem, textProblem } from './validation';

describe('feedback form checks', () => {
  it('takes JPEG, PNG and WebP up to 5 MB, three at most', () => {
    expect(shotProblem({ type: 'image/png', size: 1000 }, 0)).toBeNull();
    expect(shotProblem({ type: 'image/jpeg', size: MAX_SHOT_BYTES }, 2)).toBeNull();
    expect(shotProblem({ type: 'image/webp', size: 10 }, 1)).toBeNull();
    expect(shotProblem({ type: 'image/gif', size: 10 }, 0)).toBe('type');
    expect(shotProblem({ type: 'image/svg+xml', size: 10 }, 0)).toBe('type');
    expect(shotProblem({ type: '', size: 10 }, 0)).toBe('type');
    expect(shotProblem({ type: 'image/png', size: MAX_SHOT_BYTES + 1 }, 0)).toBe('size');
    expect(shotProblem({ type: 'image/png', size: 10 }, 3)).toBe('count');
  });

  it('requires a text that is not blank, counted in characters', () => {
    expect(textProblem(undefined)).toBe('required');
    expect(textProblem('  \n ')).toBe('required');
    expect(textProblem('地图打不开')).toBeNull();
    expect(textProblem('字'.repeat(MAX_TEXT))).toBeNull();
    expect(textProblem(` ${'字'.repeat(MAX_TEXT)} `)).toBeNull();
    expect(textProblem('字'.repeat(MAX_TEXT + 1))).toBe('tooLong');
    // Characters beyond the BMP count once, as the server counts them.
    expect(textProblem('🌾'.repeat(MAX_TEXT))).toBeNull();
  });

  it('bounds the contact and offers the bound address first', () => {
    expect(contactTooLong('')).toBe(false);
    expect(contactTooLong('1'.repeat(100))).toBe(false);
    expect(contactTooLong('1'.repeat(101))).toBe(true);
    expect(defaultContact({ mail: 'a@farm.example', phone: '13800000000' })).toBe('a@farm.example');
    expect(defaultContact({ mail: null, phone: '13800000000' })).toBe('13800000000');
    expect(defaultContact({ mail: null, phone: null })).toBe('');
    expect(defaultContact(undefined)).toBe('');
  });
});
