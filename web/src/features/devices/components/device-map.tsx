import 'leaflet/dist/leaflet.css';
import L from 'leaflet';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { MapContainer, Popup, ScaleControl, TileLayer, useMap } from 'react-leaflet';
import {
  buildClusterIndex,
  CLUSTER_MAX_ZOOM,
  devicesAt,
  itemsInView,
  type GroupCounts,
  type MapItem,
  type PlacedDevice,
} from '../cluster-index';
import type { MapConfig, MapDevice, MapGroup } from '../types';
import { DevicePopup } from './device-popup';

/** Where the map starts before it fits the devices: all of China. */
const CHINA_CENTER: L.LatLngTuple = [35, 105];
const CHINA_ZOOM = 4;
/** How close a focused device is shown: past the last clustering zoom, so it stands alone. */
const FOCUS_ZOOM = CLUSTER_MAX_ZOOM + 1;

export type GroupColors = Record<MapGroup, string>;

interface Selection {
  key: string;
  lng: number;
  lat: number;
  placed: PlacedDevice[];
}

export interface DeviceMapProps {
  placed: PlacedDevice[];
  config: MapConfig;
  colors: GroupColors;
  /** Marker outlines and cluster centres: the page's background, so markers stand out on any tiles. */
  surface: string;
  /** The map fits the devices again whenever this changes (the filters). */
  fitKey: string;
  /** A device to centre on and open; onPopupClose tells when it has been closed. */
  focusId?: number;
  now: number;
  clusterLabel: (count: number) => string;
  onPopupClose?: () => void;
  /** Given, a tapped device (with any sharing its spot) is handed here instead of opening a popup: the phone shows a card. */
  onSelect?: (devices: MapDevice[]) => void;
  onTilesFailed?: () => void;
  onTilesLoaded?: () => void;
  /** Overlays drawn above the map (legend, notices). */
  children?: (map: L.Map | null) => ReactNode;
}

function boundsOf(placed: PlacedDevice[]): L.LatLngBounds | null {
  if (placed.length === 0) return null;
  return L.latLngBounds(placed.map((p) => [p.lat, p.lng] as L.LatLngTuple));
}

/** Light lines at tile edges, under the tiles: the map still reads as a map when no tile loads. */
class GridTiles extends L.GridLayer {
  protected createTile(): HTMLElement {
    const tile = document.createElement('div');
    tile.className = 'fw-map-grid-tile';
    return tile;
  }
}

function GridUnderlay() {
  const map = useMap();
  useEffect(() => {
    const grid = new GridTiles({ zIndex: 0, pane: 'tilePane' });
    grid.addTo(map);
    return () => {
      grid.remove();
    };
  }, [map]);
  return null;
}

/** Fits the map to the devices; one device, or devices at one spot, get a useful zoom. */
export function fitDevices(map: L.Map, placed: PlacedDevice[]) {
  const bounds = boundsOf(placed);
  if (!bounds) map.setView(CHINA_CENTER, CHINA_ZOOM);
  else map.fitBounds(bounds, { padding: [48, 48], maxZoom: 14 });
}

function clusterIcon(counts: GroupCounts, count: number, colors: GroupColors): L.DivIcon {
  const size = count < 10 ? 34 : count < 100 ? 40 : count < 1000 ? 48 : 56;
  // A ring split by group: how much of the cluster works, is faulty, or is not deployed.
  let start = 0;
  const stops = (['working', 'fault', 'notDeployed'] as const)
    .filter((group) => counts[group] > 0)
    .map((group) => {
      const end = start + (counts[group] / count) * 360;
      const stop = `${colors[group]} ${start}deg ${end}deg`;
      start = end;
      return stop;
    });
  const html = `<div class="fw-cluster" style="width:${size}px;height:${size}px;background:conic-gradient(${stops.join(',')})"><span>${count}</span></div>`;
  return L.divIcon({ html, className: 'fw-cluster-icon', iconSize: [size, size] });
}

/** Leaflet map of devices: clusters from a supercluster index, single devices on a canvas. */
export function DeviceMap({
  placed,
  config,
  colors,
  surface,
  fitKey,
  focusId,
  now,
  clusterLabel,
  onPopupClose,
  onSelect,
  onTilesFailed,
  onTilesLoaded,
  children,
}: DeviceMapProps) {
  const [map, setMap] = useState<L.Map | null>(null);
  const [selection, setSelection] = useState<Selection | null>(null);
  const index = useMemo(() => buildClusterIndex(placed), [placed]);
  const fittedKey = useRef<string | null>(null);
  const focusedId = useRef<number | undefined>(undefined);
  // Read when a marker is tapped, so a new callback does not redraw the markers.
  const selectHandler = useRef(onSelect);
  useEffect(() => {
    selectHandler.current = onSelect;
  }, [onSelect]);

  // Draws what is in view, again after every pan and zoom. Only the visible clusters and
  // devices become layers, so ten thousand devices cost no more than a few hundred.
  useEffect(() => {
    if (!map) return;
    const layer = L.layerGroup().addTo(map);
    const renderer = L.canvas({ padding: 0.3 });
    const select = (item: Extract<MapItem, { kind: 'device' }>) => {
      const here = devicesAt(placed, item.lng, item.lat);
      if (selectHandler.current) {
        selectHandler.current(here.map((p) => p.device));
        return;
      }
      setSelection({ key: `${item.placed.device.id}-${Date.now()}`, lng: item.lng, lat: item.lat, placed: here });
    };
    const draw = () => {
      const bounds = map.getBounds();
      const items = itemsInView(index, placed, [bounds.getWest(), bounds.getSouth(), bounds.getEast(), bounds.getNorth()], map.getZoom());
      layer.clearLayers();
      for (const item of items) {
        if (item.kind === 'cluster') {
          const marker = L.marker([item.lat, item.lng], {
            icon: clusterIcon(item.counts, item.count, colors),
            title: clusterLabel(item.count),
            alt: clusterLabel(item.count),
            riseOnHover: true,
          });
          marker.on('click', () => {
            const zoom = Math.min(index.getClusterExpansionZoom(item.id), map.getMaxZoom());
            map.flyTo([item.lat, item.lng], zoom, { duration: 0.4 });
          });
          layer.addLayer(marker);
        } else {
          const { device } = item.placed;
          const marker = L.circleMarker([item.lat, item.lng], {
            renderer,
            radius: 8,
            weight: 2,
            color: surface,
            fillColor: colors[device.group] ?? colors.notDeployed,
            fillOpacity: 1,
          });
          marker.bindTooltip(
            () => {
              const label = document.createElement('span');
              label.textContent = device.name;
              return label;
            },
            { direction: 'top', offset: [0, -8] },
          );
          marker.on('click', () => select(item));
          layer.addLayer(marker);
        }
      }
    };
    draw();
    map.on('moveend', draw);
    return () => {
      map.off('moveend', draw);
      layer.remove();
    };
  }, [map, index, placed, colors, surface, clusterLabel]);

  // Fits the devices when they first arrive and whenever the filters change.
  useEffect(() => {
    if (!map || fittedKey.current === fitKey) return;
    fittedKey.current = fitKey;
    // A device named in the address is shown instead, by the effect below.
    if (focusId !== undefined && focusedId.current === undefined && placed.some((p) => p.device.id === focusId)) return;
    fitDevices(map, placed);
  }, [map, fitKey, placed, focusId]);

  // The device the address names: shown once, close up, with its popup open.
  const focused = useMemo(() => placed.find((p) => p.device.id === focusId), [placed, focusId]);
  useEffect(() => {
    if (!map || !focused || focusedId.current === focused.device.id) return;
    focusedId.current = focused.device.id;
    map.setView([focused.lat, focused.lng], Math.min(FOCUS_ZOOM, map.getMaxZoom()));
    selectHandler.current?.(devicesAt(placed, focused.lng, focused.lat).map((p) => p.device));
  }, [map, focused, placed]);

  const shown = useMemo<Selection | null>(() => {
    if (selection) return selection;
    if (!focused) return null;
    return { key: `focus-${focused.device.id}`, lng: focused.lng, lat: focused.lat, placed: devicesAt(placed, focused.lng, focused.lat) };
  }, [selection, focused, placed]);
  const position = useMemo<L.LatLngTuple | null>(() => (shown ? [shown.lat, shown.lng] : null), [shown]);
  // An empty list means the template has no {s}; Leaflet's default then goes unused.
  const subdomains = config.subdomains || 'abc';

  return (
    <>
      <MapContainer
        ref={setMap}
        className="fw-device-map__leaflet"
        center={CHINA_CENTER}
        zoom={CHINA_ZOOM}
        minZoom={2}
        maxZoom={config.maxZoom ?? 18}
        worldCopyJump
        preferCanvas
      >
        <TileLayer
          key={`${config.url}|${config.coords}`}
          url={config.url}
          subdomains={subdomains}
          attribution={config.attribution}
          maxZoom={config.maxZoom ?? 18}
          zIndex={1}
          eventHandlers={{ tileerror: () => onTilesFailed?.(), tileload: () => onTilesLoaded?.() }}
        />
        <GridUnderlay />
        <ScaleControl position="bottomleft" imperial={false} />
        {!onSelect && shown && position && (
          <Popup
            key={shown.key}
            position={position}
            className="fw-map-popup-shell"
            maxWidth={320}
            minWidth={240}
            eventHandlers={{
              remove: () => {
                setSelection((current) => (current?.key === shown.key ? null : current));
                onPopupClose?.();
              },
            }}
          >
            <DevicePopup devices={shown.placed.map((p) => p.device)} now={now} />
          </Popup>
        )}
      </MapContainer>
      {children?.(map)}
    </>
  );
}
