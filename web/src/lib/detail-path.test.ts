import { describe, expect, it } from 'vitest';
import { matchPath } from 'react-router';
import { paths } from '@/config/paths';
import { DETAIL_PAGES, deviceDetailPath, mobileDevicePath } from './detail-path';

describe('deviceDetailPath', () => {
  it.each([
    ['liquidometer', '/apps/poi/liquidometer/abc123/7'],
    ['ibiosense', '/apps/poi/ibiosense/abc123/7'],
    ['tianqi', '/apps/poi/tianqi/abc123/7'],
    ['moisture', '/apps/poi/moisture/abc123/7'],
    ['zhi-shang', '/apps/poi/zhi-shang/abc123/7'],
    ['yun-yao', '/apps/poi/yun-yao/abc123/7'],
    ['dcr004', '/apps/poi/dcr004/abc123/7'],
    ['shan-jing', '/apps/poi/shan-jing/abc123/7'],
  ])('%s → /apps/poi/{page}/{hashId}/{id}', (page, want) => {
    expect(deviceDetailPath({ page, hashId: 'abc123', id: 7 })).toBe(want);
  });

  it('opens a rain gauge by its hash id alone', () => {
    expect(deviceDetailPath({ page: 'pluviometer', hashId: 'abc123', id: 7 })).toBe('/apps/poi/pluviometer/abc123');
  });

  it('gives no path for an unknown page kind or a missing hash id', () => {
    expect(deviceDetailPath({ page: 'toaster', hashId: 'abc123', id: 7 })).toBeNull();
    expect(deviceDetailPath({ page: '', hashId: 'abc123', id: 7 })).toBeNull();
    expect(deviceDetailPath({ page: 'tianqi', hashId: '', id: 7 })).toBeNull();
  });

  it('escapes what it puts in the path', () => {
    expect(deviceDetailPath({ page: 'tianqi', hashId: 'a/b?c', id: 7 })).toBe('/apps/poi/tianqi/a%2Fb%3Fc/7');
  });

  it('builds paths the router matches for every page kind', () => {
    const routes: string[] = Object.values(paths.poi);
    for (const page of DETAIL_PAGES) {
      const path = deviceDetailPath({ page, hashId: 'h1', id: 42 })!;
      const matched = routes.map((pattern) => matchPath(pattern, path)).find(Boolean);
      expect(matched, path).toBeTruthy();
      expect(matched!.params).toEqual(page === 'pluviometer' ? { hashId: 'h1' } : { hashId: 'h1', deviceId: '42' });
    }
  });
});

describe('mobileDevicePath', () => {
  it('opens the phone real-time screen, matching the mobile route', () => {
    const path = mobileDevicePath({ hashId: 'ab/c', id: 7 });
    expect(path).toBe('/apps/mobile/poi/ab%2Fc/7/realtime');
    expect(matchPath(paths.mobile.poi.realtime, path)?.params).toEqual({ hashId: 'ab/c', deviceId: '7' });
  });
});
