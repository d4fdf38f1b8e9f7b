import { describe, expect, it } from 'vitest';
import { gcj02ToBd09, navigateLinks, outOfChina, wgs84ToGcj02 } from './geo';

describe('coordinates', () => {
  it('applies the SPEC.md §5 bounding box exactly', () => {
    expect(outOfChina(72.004, 30)).toBe(false);
    expect(outOfChina(72.0039, 30)).toBe(true);
    expect(outOfChina(137.8347, 30)).toBe(false);
    expect(outOfChina(137.8348, 30)).toBe(true);
    expect(outOfChina(116, 0.8293)).toBe(false);
    expect(outOfChina(116, 0.8292)).toBe(true);
    expect(outOfChina(116, 55.8271)).toBe(false);
    expect(outOfChina(116, 55.8272)).toBe(true);
  });

  it('leaves points outside China unchanged', () => {
    expect(wgs84ToGcj02(2.35, 48.85)).toEqual([2.35, 48.85]);
  });

  it('offsets Beijing by the published GCJ-02 amount', () => {
    // Tiananmen, WGS84 116.391275,39.906217 → GCJ-02 ≈ 116.397519,39.907620
    const [lng, lat] = wgs84ToGcj02(116.391275, 39.906217);
    expect(lng).toBeCloseTo(116.39752, 4);
    expect(lat).toBeCloseTo(39.90762, 4);
  });

  it('converts GCJ-02 to BD-09 with Baidu\'s offset', () => {
    const [lng, lat] = gcj02ToBd09(116.404, 39.915);
    expect(lng).toBeCloseTo(116.41036, 4);
    expect(lat).toBeCloseTo(39.92134, 4);
  });

  it('builds both navigate links with encoded names', () => {
    const links = navigateLinks(116.391275, 39.906217, 'Plot 3 东');
    expect(links.amap).toMatch(/^https:\/\/uri\.amap\.com\/marker\?position=116\.3975\d\d,39\.9076\d\d&name=Plot%203%20%E4%B8%9C$/);
    expect(links.baidu).toMatch(/^https:\/\/api\.map\.baidu\.com\/marker\?location=39\.91\d+,116\.40\d+&title=Plot%203%20%E4%B8%9C&content=Plot%203%20%E4%B8%9C&output=html$/);
  });
});
