import { describe, expect, it } from 'vitest';
import type { AdviceDevice } from '../types';
import { defaultLead, fieldFromSearch, searchOfField } from './field';

const device = (id: number, name: string, category: string): AdviceDevice => ({
  id,
  name,
  category,
  hashId: `h${id}`,
  sn: `SN${id}`,
  typeName: '',
  page: '',
  slave: false,
  lng: null,
  lat: null,
});

describe('the field in the address', () => {
  it('reads the lead device and the others, dropping repeats, the lead and nonsense', () => {
    expect(fieldFromSearch(new URLSearchParams('device=4&field=13, 11,4,x,13,-2'))).toEqual({ lead: 4, others: [13, 11] });
    expect(fieldFromSearch(new URLSearchParams('device=4'))).toEqual({ lead: 4, others: [] });
    expect(fieldFromSearch(new URLSearchParams('device=abc'))).toBeNull();
    expect(fieldFromSearch(new URLSearchParams(''))).toBeNull();
  });

  it('writes what it reads', () => {
    const search = searchOfField({ lead: 4, others: [13, 11] });
    expect(search.toString()).toBe('device=4&field=13%2C11');
    expect(fieldFromSearch(search)).toEqual({ lead: 4, others: [13, 11] });
    expect(searchOfField({ lead: 4, others: [4] }).toString()).toBe('device=4');
  });
});

describe('defaultLead', () => {
  it('opens on the first soil device by name, else the first of the others', () => {
    expect(defaultLead([device(1, 'A station', 'meteorology'), device(2, 'Z probe', 'soil'), device(3, 'B probe', 'soil')])?.id).toBe(3);
    expect(defaultLead([device(9, 'Trap', 'ecology'), device(8, 'Gauge', 'disaster')])?.id).toBe(8);
    expect(defaultLead([])).toBeUndefined();
  });
});
