/**
 * Coordinate systems of Chinese maps and the "Navigate" links of SPEC.md §2.
 *
 * Devices report WGS84 (GPS). Chinese map providers draw in GCJ-02 (the
 * national offset system; 高德/AMap, Tencent) or BD-09 (Baidu, GCJ-02 with a
 * further offset). The transform is the widely published Krasovsky-ellipsoid
 * approximation; outside China (SPEC.md §5 bounding box) no offset applies.
 */

export type LngLat = [lng: number, lat: number];

const A = 6378245.0; // Krasovsky 1940 semi-major axis
const EE = 0.006693421622965943; // its first eccentricity squared
const X_PI = (Math.PI * 3000.0) / 180.0;

/** SPEC.md §5: outside China when lng < 72.004 or > 137.8347, or lat < 0.8293 or > 55.8271. */
export function outOfChina(lng: number, lat: number): boolean {
  return lng < 72.004 || lng > 137.8347 || lat < 0.8293 || lat > 55.8271;
}

function transformLat(x: number, y: number): number {
  let ret = -100.0 + 2.0 * x + 3.0 * y + 0.2 * y * y + 0.1 * x * y + 0.2 * Math.sqrt(Math.abs(x));
  ret += ((20.0 * Math.sin(6.0 * x * Math.PI) + 20.0 * Math.sin(2.0 * x * Math.PI)) * 2.0) / 3.0;
  ret += ((20.0 * Math.sin(y * Math.PI) + 40.0 * Math.sin((y / 3.0) * Math.PI)) * 2.0) / 3.0;
  ret += ((160.0 * Math.sin((y / 12.0) * Math.PI) + 320 * Math.sin((y * Math.PI) / 30.0)) * 2.0) / 3.0;
  return ret;
}

function transformLng(x: number, y: number): number {
  let ret = 300.0 + x + 2.0 * y + 0.1 * x * x + 0.1 * x * y + 0.1 * Math.sqrt(Math.abs(x));
  ret += ((20.0 * Math.sin(6.0 * x * Math.PI) + 20.0 * Math.sin(2.0 * x * Math.PI)) * 2.0) / 3.0;
  ret += ((20.0 * Math.sin(x * Math.PI) + 40.0 * Math.sin((x / 3.0) * Math.PI)) * 2.0) / 3.0;
  ret += ((150.0 * Math.sin((x / 12.0) * Math.PI) + 300.0 * Math.sin((x / 30.0) * Math.PI)) * 2.0) / 3.0;
  return ret;
}

/** WGS84 → GCJ-02; unchanged outside China. */
export function wgs84ToGcj02(lng: number, lat: number): LngLat {
  if (outOfChina(lng, lat)) return [lng, lat];
  let dLat = transformLat(lng - 105.0, lat - 35.0);
  let dLng = transformLng(lng - 105.0, lat - 35.0);
  const radLat = (lat / 180.0) * Math.PI;
  let magic = Math.sin(radLat);
  magic = 1 - EE * magic * magic;
  const sqrtMagic = Math.sqrt(magic);
  dLat = (dLat * 180.0) / (((A * (1 - EE)) / (magic * sqrtMagic)) * Math.PI);
  dLng = (dLng * 180.0) / ((A / sqrtMagic) * Math.cos(radLat) * Math.PI);
  return [lng + dLng, lat + dLat];
}

/** GCJ-02 → BD-09. */
export function gcj02ToBd09(lng: number, lat: number): LngLat {
  const z = Math.sqrt(lng * lng + lat * lat) + 0.00002 * Math.sin(lat * X_PI);
  const theta = Math.atan2(lat, lng) + 0.000003 * Math.cos(lng * X_PI);
  return [z * Math.cos(theta) + 0.0065, z * Math.sin(theta) + 0.006];
}

/** WGS84 → BD-09 (through GCJ-02). */
export function wgs84ToBd09(lng: number, lat: number): LngLat {
  const [gLng, gLat] = wgs84ToGcj02(lng, lat);
  return gcj02ToBd09(gLng, gLat);
}

export interface NavigateLinks {
  /** 高德地图: marker URI, position "lng,lat" in GCJ-02. */
  amap: string;
  /** 百度地图: marker API, location "lat,lng" in BD-09, title and content the name, output=html. */
  baidu: string;
}

function fixed(n: number): string {
  return n.toFixed(6);
}

/** SPEC.md §2 "Navigate": the two providers' links for a WGS84 point and a name. */
export function navigateLinks(lng: number, lat: number, name: string): NavigateLinks {
  const [gLng, gLat] = wgs84ToGcj02(lng, lat);
  const [bLng, bLat] = gcj02ToBd09(gLng, gLat);
  const n = encodeURIComponent(name);
  return {
    amap: `https://uri.amap.com/marker?position=${fixed(gLng)},${fixed(gLat)}&name=${n}`,
    baidu: `https://api.map.baidu.com/marker?location=${fixed(bLat)},${fixed(bLng)}&title=${n}&content=${n}&output=html`,
  };
}
