import { describe, expect, it } from 'vitest';
import { isWholeLabel, labelPagePath, typedLabelCode } from './label';

describe('typed device labels', () => {
  it('takes the whole label, its URL, or the SN and check code', () => {
    expect(typedLabelCode(' fw:ZS0000000901:ABCD2345 ', '')).toEqual({ code: 'fw:ZS0000000901:ABCD2345' });
    expect(typedLabelCode('https://farm.example.com/apps/info?code=fw%3AZS0000000901%3AABCD2345', '')).toEqual({
      code: 'https://farm.example.com/apps/info?code=fw%3AZS0000000901%3AABCD2345',
    });
    expect(typedLabelCode('ZS0000000901', ' abcd2345 ')).toEqual({ code: 'ZS0000000901 ABCD2345' });
  });

  it('names the field that is wrong', () => {
    expect(typedLabelCode('  ', '')).toEqual({ problem: 'required', field: 'sn' });
    expect(typedLabelCode('ZS/01', 'ABCD2345')).toEqual({ problem: 'snInvalid', field: 'sn' });
    expect(typedLabelCode('ZS0000000901', '')).toEqual({ problem: 'checkRequired', field: 'check' });
    expect(typedLabelCode('ZS0000000901', 'ABCD')).toEqual({ problem: 'checkInvalid', field: 'check' });
    expect(typedLabelCode('ZS0000000901', 'ABCD0189')).toEqual({ problem: 'checkInvalid', field: 'check' });
  });

  it('tells a whole label from an SN and builds the label page address', () => {
    expect(isWholeLabel('fw:X:Y')).toBe(true);
    expect(isWholeLabel('HTTPS://x.example/apps/info?code=1')).toBe(true);
    expect(isWholeLabel('ZS0000000901')).toBe(false);
    expect(labelPagePath('fw:ZS0000000901:ABCD2345')).toBe('/apps/info?code=fw%3AZS0000000901%3AABCD2345');
  });
});
