import { describe, expect, it } from 'vitest';
import type { Sample } from '../types';
import { filterSamples, neighbours, NO_FILTER, sampleTags } from './filters';

function sample(id: number, deviceName: string, sn: string, tag: string, sampleTime: number): Sample {
  return { id, deviceName, sn, tag, sampleTime, duration: 0, location: '', contentType: 'image/jpeg', width: 1, height: 1, labels: [], createTime: 0, url: '' };
}

const samples = [sample(1, 'Trap east', 'IBS0010001', 'moth', 1000), sample(2, 'Trap west', 'IBS0010002', 'beetle', 2000), sample(3, '', '', '', 3000)];

describe('filterSamples', () => {
  it('narrows by part of the device name or SN, case aside', () => {
    expect(filterSamples(samples, { ...NO_FILTER, device: 'EAST' }).map((s) => s.id)).toEqual([1]);
    expect(filterSamples(samples, { ...NO_FILTER, device: '0002' }).map((s) => s.id)).toEqual([2]);
  });

  it('narrows by tag and by a time range with both ends included', () => {
    expect(filterSamples(samples, { ...NO_FILTER, tag: 'moth' }).map((s) => s.id)).toEqual([1]);
    expect(filterSamples(samples, { ...NO_FILTER, from: 2000, to: 3000 }).map((s) => s.id)).toEqual([2, 3]);
  });

  it('keeps everything with no filter', () => {
    expect(filterSamples(samples, NO_FILTER)).toHaveLength(3);
  });
});

describe('sampleTags and neighbours', () => {
  it('lists the tags in use once, sorted', () => {
    expect(sampleTags([...samples, sample(4, '', '', 'moth', 0)])).toEqual(['beetle', 'moth']);
  });

  it('finds the samples either side, none past the ends', () => {
    expect(neighbours([5, 3, 9], 3)).toEqual({ previous: 5, next: 9 });
    expect(neighbours([5, 3, 9], 5)).toEqual({ previous: undefined, next: 3 });
    expect(neighbours([5, 3, 9], 4)).toEqual({});
  });
});
