import { firstRuleError } from './form-rules';

describe('firstRuleError', () => {
  it('applies required, whitespace, pattern, min and validators in order, as the forms do', async () => {
    const rules = [
      { required: true, whitespace: true, message: 'required' },
      { pattern: /^[a-z]+$/, message: 'letters' },
      { min: 3, message: 'short' },
      { validator: async (_rule: unknown, value: unknown) => (value === 'bad' ? Promise.reject(new Error('taken')) : undefined) },
    ];
    expect(await firstRuleError(rules, '')).toBe('required');
    expect(await firstRuleError(rules, '   ')).toBe('required');
    expect(await firstRuleError(rules, 'ab1')).toBe('letters');
    expect(await firstRuleError(rules, 'ab')).toBe('short');
    expect(await firstRuleError(rules, 'bad')).toBe('taken');
    expect(await firstRuleError(rules, 'good')).toBe('');
  });

  it('counts a list by its length, and runs a validator on an empty value', async () => {
    expect(await firstRuleError([{ min: 2, message: 'two' }], ['a'])).toBe('two');
    expect(await firstRuleError([{ required: true, message: 'pick' }], [])).toBe('pick');
    const seen: unknown[] = [];
    await firstRuleError([{ validator: async (_r: unknown, v: unknown) => void seen.push(v) }], '');
    expect(seen).toEqual(['']);
  });

  it('gives a dependent rule the other fields', async () => {
    const same = ({ getFieldValue }: { getFieldValue: (name: string) => unknown }) => ({
      validator: async (_r: unknown, v: unknown) => (v === getFieldValue('old') ? Promise.reject(new Error('same')) : undefined),
    });
    expect(await firstRuleError([same], 'x', { old: 'x' })).toBe('same');
    expect(await firstRuleError([same], 'y', { old: 'x' })).toBe('');
  });
});
