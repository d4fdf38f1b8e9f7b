import 'leaflet/dist/leaflet.css';
import L from 'leaflet';
import { useEffect, useMemo, useRef, useState } from 'react';
import { MapContainer, ScaleControl, TileLayer, useMap, useMapEvents } from 'react-leaflet';
import { wgs84ToGcj02 } from '@/lib/geo';
import type { MapConfig } from '@/lib/map-config';
import type { ET0Grid, ET0Point } from '../api/et0';

/** A box in WGS 84 degrees. */
export interface Box {
  west: number;
  south: number;
  east: number;
  north: number;
}

/** ET0 from low to high: blue (little demand for water) through yellow to red. */
export const RAMP = ['#2c7bb6', '#abd9e9', '#ffffbf', '#fdae61', '#d7191c'];

function hex(color: string): [number, number, number] {
  const n = parseInt(color.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/** The ramp's colour at t (0–1). */
export function rampColor(t: number): [number, number, number] {
  const x = Math.min(1, Math.max(0, t)) * (RAMP.length - 1);
  const i = Math.min(RAMP.length - 2, Math.floor(x));
  const a = hex(RAMP[i]);
  const b = hex(RAMP[i + 1]);
  const f = x - i;
  return [0, 1, 2].map((k) => Math.round(a[k] + (b[k] - a[k]) * f)) as [number, number, number];
}

/** The grid as a picture, one pixel a cell, north up. */
function gridImage(grid: ET0Grid): string {
  const canvas = document.createElement('canvas');
  canvas.width = grid.cols;
  canvas.height = grid.rows;
  const ctx = canvas.getContext('2d');
  if (!ctx) return '';
  const img = ctx.createImageData(grid.cols, grid.rows);
  const span = grid.max - grid.min || 1;
  grid.values.forEach((v, i) => {
    const [r, g, b] = rampColor((v - grid.min) / span);
    img.data.set([r, g, b, 190], i * 4);
  });
  ctx.putImageData(img, 0, 0);
  return canvas.toDataURL();
}

/** Converts WGS 84 to the tiles' system and back (GCJ-02 on Chinese tile sources). */
function projector(config: MapConfig) {
  const gcj = config.coords === 'gcj02';
  return {
    to: (lat: number, lng: number): L.LatLngTuple => {
      if (!gcj) return [lat, lng];
      const [x, y] = wgs84ToGcj02(lng, lat);
      return [y, x];
    },
    from: (lat: number, lng: number): [number, number] => {
      if (!gcj) return [lat, lng];
      const [x, y] = wgs84ToGcj02(lng, lat);
      return [lat - (y - lat), lng - (x - lng)]; // one step of the inverse: metres off at most
    },
  };
}

/** Fits the map to a box once, when it is first known. */
function FitOnce({ box, config }: { box?: Box; config: MapConfig }) {
  const map = useMap();
  const done = useRef(false);
  useEffect(() => {
    if (done.current || !box) return;
    const p = projector(config);
    map.fitBounds(L.latLngBounds([p.to(box.south, box.west), p.to(box.north, box.east)]), { padding: [32, 32], maxZoom: 12 });
    done.current = true;
  }, [box, config, map]);
  return null;
}

function Overlay({ grid, points, area, config, label }: { grid?: ET0Grid; points: ET0Point[]; area?: Box; config: MapConfig; label: (p: ET0Point) => string }) {
  const map = useMap();
  const p = useMemo(() => projector(config), [config]);
  useEffect(() => {
    const layers: L.Layer[] = [];
    if (area) {
      const bounds = L.latLngBounds([p.to(area.south, area.west), p.to(area.north, area.east)]);
      layers.push(L.rectangle(bounds, { color: '#3961FF', weight: 2, fill: false }));
    }
    if (grid) {
      const south = grid.north - grid.rows * grid.cell;
      const east = grid.west + grid.cols * grid.cell;
      const image = L.imageOverlay(gridImage(grid), L.latLngBounds([p.to(south, grid.west), p.to(grid.north, east)]), { className: 'fw-et0-grid', opacity: 0.85 });
      layers.push(image);
    }
    for (const pt of points) {
      layers.push(
        L.circleMarker(p.to(pt.lat, pt.lng), { radius: 6, color: '#fff', weight: 2, fillColor: pt.source === 'station' ? '#1f1f1f' : '#8c8c8c', fillOpacity: 1 }).bindTooltip(label(pt)),
      );
    }
    layers.forEach((l) => l.addTo(map));
    return () => layers.forEach((l) => l.remove());
  }, [map, grid, points, area, p, label]);
  return null;
}

/** Two clicks draw a box; the first corner follows the pointer to the second. */
function Drawer({ config, onDraw }: { config: MapConfig; onDraw: (box: Box) => void }) {
  const map = useMap();
  const p = useMemo(() => projector(config), [config]);
  const [first, setFirst] = useState<L.LatLng | null>(null);
  const [rect] = useState(() => L.rectangle([[0, 0], [0, 0]], { color: '#3961FF', weight: 2, dashArray: '6 4', fillOpacity: 0.08 }));
  useEffect(() => {
    map.getContainer().style.cursor = 'crosshair';
    return () => {
      map.getContainer().style.cursor = '';
      rect.remove();
    };
  }, [map, rect]);
  useMapEvents({
    click(e) {
      if (!first) {
        setFirst(e.latlng);
        rect.setBounds(L.latLngBounds(e.latlng, e.latlng)).addTo(map);
        return;
      }
      const [lat1, lng1] = p.from(first.lat, first.lng);
      const [lat2, lng2] = p.from(e.latlng.lat, e.latlng.lng);
      rect.setBounds(L.latLngBounds(first, e.latlng));
      setFirst(null);
      onDraw({ west: Math.min(lng1, lng2), east: Math.max(lng1, lng2), south: Math.min(lat1, lat2), north: Math.max(lat1, lat2) });
    },
    mousemove(e) {
      if (first) rect.setBounds(L.latLngBounds(first, e.latlng));
    },
  });
  return null;
}

interface ET0MapProps {
  config: MapConfig;
  /** Where the map opens (the area, or the user's stations); it does not move after. */
  view?: Box;
  area?: Box;
  grid?: ET0Grid;
  points?: ET0Point[];
  /** Given, the map draws a box with two clicks and hands it here. */
  onDraw?: (box: Box) => void;
  pointLabel?: (p: ET0Point) => string;
  height?: number;
}

const CHINA: L.LatLngTuple = [35, 105];
const noPoints: ET0Point[] = [];

/** The map of the ET0 pages: the area, the grid coloured by ET0, the points it was made from. */
export function ET0Map({ config, view, area, grid, points = noPoints, onDraw, pointLabel = (pt) => `${pt.name}: ${pt.value} mm`, height = 460 }: ET0MapProps) {
  return (
    <div className="fw-et0-map" style={{ height }} data-testid="et0-map">
      <MapContainer center={CHINA} zoom={4} style={{ height: '100%' }} attributionControl>
        <TileLayer url={config.url} subdomains={config.subdomains ?? 'abc'} attribution={config.attribution} maxZoom={config.maxZoom ?? 18} />
        <ScaleControl imperial={false} />
        <FitOnce box={view ?? area} config={config} />
        <Overlay grid={grid} points={points} area={area} config={config} label={pointLabel} />
        {onDraw && <Drawer config={config} onDraw={onDraw} />}
      </MapContainer>
    </div>
  );
}
