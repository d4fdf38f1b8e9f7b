import { useEffect, useRef, useState, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { boxFromDrag, hitTest, isPoint, moveLabel, pointAt, toPicture, type Point, type Size } from '../lib/geometry';
import type { DrawMode } from '../lib/shortcuts';
import type { Label } from '../types';

type Drag = { kind: 'draw'; start: Point; end: Point } | { kind: 'move'; index: number; origin: Point; dx: number; dy: number } | null;

/** How near, in screen pixels, a press must be to a point to take it. */
const GRAB = 10;

export interface LabelEditorProps {
  src: string;
  size: Size;
  labels: Label[];
  selected: number;
  mode: DrawMode;
  /** Whether a new label can be drawn (an element is chosen). */
  canDraw: boolean;
  colorOf: (element: string) => string;
  nameOf: (element: string) => string;
  onAdd: (label: Omit<Label, 'element'>) => void;
  onSelect: (index: number) => void;
  onMove: (index: number, dx: number, dy: number) => void;
  describedBy?: string;
}

/**
 * The picture with its labels drawn over it. A press on a label selects it and drags it; elsewhere it
 * draws a box (drag) or a point (click), as the mode says, or clears the selection.
 */
export function LabelEditor({ src, size, labels, selected, mode, canDraw, colorOf, nameOf, onAdd, onSelect, onMove, describedBy }: LabelEditorProps) {
  const { t } = useTranslation('ailab');
  const svg = useRef<SVGSVGElement>(null);
  const [drag, setDrag] = useState<Drag>(null);
  // Picture pixels per screen pixel: shapes keep the same size on screen whatever the zoom.
  const [scale, setScale] = useState(1);

  useEffect(() => {
    const element = svg.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      const width = element.getBoundingClientRect().width;
      if (width > 0) setScale(size.width / width);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [size.width]);

  const at = (event: PointerEvent<SVGSVGElement>) => {
    const rect = svg.current!.getBoundingClientRect();
    return toPicture(event.clientX, event.clientY, rect, size);
  };

  const onPointerDown = (event: PointerEvent<SVGSVGElement>) => {
    if (event.button !== 0) return;
    const rect = svg.current!.getBoundingClientRect();
    const perPixel = rect.width > 0 ? size.width / rect.width : 1;
    const point = at(event);
    const hit = hitTest(labels, point, GRAB * perPixel);
    event.currentTarget.setPointerCapture(event.pointerId);
    if (hit >= 0) {
      onSelect(hit);
      setDrag({ kind: 'move', index: hit, origin: point, dx: 0, dy: 0 });
    } else if (mode === 'box' && canDraw) {
      setDrag({ kind: 'draw', start: point, end: point });
    } else if (mode === 'point' && canDraw) {
      onAdd(pointAt(point, size));
    } else {
      onSelect(-1);
    }
  };

  const onPointerMove = (event: PointerEvent<SVGSVGElement>) => {
    if (!drag) return;
    const point = at(event);
    if (drag.kind === 'draw') setDrag({ ...drag, end: point });
    else setDrag({ ...drag, dx: point.x - drag.origin.x, dy: point.y - drag.origin.y });
  };

  const onPointerUp = () => {
    if (!drag) return;
    if (drag.kind === 'draw') {
      const box = boxFromDrag(drag.start, drag.end, size);
      if (box) onAdd(box);
    } else {
      onMove(drag.index, drag.dx, drag.dy);
    }
    setDrag(null);
  };

  // Sizes in screen pixels, turned into the picture's: the same on a small picture shown large.
  const radius = 6 * scale;
  const fontSize = 13 * scale;
  const preview = drag?.kind === 'draw' ? boxFromDrag(drag.start, drag.end, size) : null;

  return (
    <svg
      ref={svg}
      className="fw-label__svg"
      viewBox={`0 0 ${size.width} ${size.height}`}
      data-mode={mode}
      role="application"
      tabIndex={0}
      aria-label={t('label.canvas', { count: labels.length })}
      aria-describedby={describedBy}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={() => setDrag(null)}
      data-testid="label-canvas"
    >
      <image href={src} x={0} y={0} width={size.width} height={size.height} preserveAspectRatio="none" />
      {labels.map((original, index) => {
        const label = drag?.kind === 'move' && drag.index === index ? moveLabel(original, drag.dx, drag.dy, size) : original;
        const color = colorOf(label.element);
        const active = index === selected;
        const name = nameOf(label.element);
        return (
          <g key={index} className="fw-label__shape" data-testid="label-shape" data-selected={active || undefined}>
            {isPoint(label) ? (
              <circle cx={label.x} cy={label.y} r={active ? radius * 1.4 : radius} fill={color} stroke="#fff" strokeWidth={active ? 3 : 1.5} vectorEffect="non-scaling-stroke" />
            ) : (
              <rect
                x={label.x}
                y={label.y}
                width={label.w}
                height={label.h}
                fill={color}
                fillOpacity={active ? 0.25 : 0.08}
                stroke={color}
                strokeWidth={active ? 3 : 2}
                strokeDasharray={active ? '6 3' : undefined}
                vectorEffect="non-scaling-stroke"
              />
            )}
            <text
              x={isPoint(label) ? label.x + radius * 1.6 : label.x + 2 * scale}
              y={isPoint(label) ? label.y - radius : label.y - 3 * scale < fontSize ? label.y + fontSize + 2 * scale : label.y - 3 * scale}
              fontSize={fontSize}
              fill={color}
              stroke="rgba(0,0,0,0.75)"
              strokeWidth={3}
              paintOrder="stroke"
              vectorEffect="non-scaling-stroke"
              style={{ pointerEvents: 'none' }}
            >
              {name}
            </text>
          </g>
        );
      })}
      {preview ? (
        <rect x={preview.x} y={preview.y} width={preview.w} height={preview.h} fill="none" stroke="#fff" strokeWidth={2} strokeDasharray="4 3" vectorEffect="non-scaling-stroke" />
      ) : null}
    </svg>
  );
}
