import type { Label } from '../types';

/** A position on the picture, in its pixels. */
export interface Point {
  x: number;
  y: number;
}

/** The picture's size in pixels. */
export interface Size {
  width: number;
  height: number;
}

/** A drag shorter than this, in picture pixels on either side, draws no box. */
export const MIN_BOX = 4;

function clamp(value: number, low: number, high: number): number {
  return Math.min(Math.max(value, low), high);
}

/** Keeps a position on the picture. */
export function clampPoint({ x, y }: Point, { width, height }: Size): Point {
  return { x: clamp(x, 0, width), y: clamp(y, 0, height) };
}

/**
 * Where a pointer at (clientX, clientY) is on a picture drawn in `rect` (its box on the screen),
 * in the picture's pixels, kept on the picture.
 */
export function toPicture(clientX: number, clientY: number, rect: Pick<DOMRect, 'left' | 'top' | 'width' | 'height'>, size: Size): Point {
  if (rect.width <= 0 || rect.height <= 0) return { x: 0, y: 0 };
  return clampPoint({ x: ((clientX - rect.left) / rect.width) * size.width, y: ((clientY - rect.top) / rect.height) * size.height }, size);
}

/**
 * The box a drag from `start` to `end` spans, whichever way it went, kept on the picture and in
 * whole pixels; null when it is too small to be meant as a box.
 */
export function boxFromDrag(start: Point, end: Point, size: Size): Omit<Label, 'element'> | null {
  const a = clampPoint(start, size);
  const b = clampPoint(end, size);
  const x = Math.round(Math.min(a.x, b.x));
  const y = Math.round(Math.min(a.y, b.y));
  const w = Math.round(Math.max(a.x, b.x)) - x;
  const h = Math.round(Math.max(a.y, b.y)) - y;
  if (w < MIN_BOX || h < MIN_BOX) return null;
  return { x, y, w, h };
}

/** A point label at a position, in whole pixels on the picture. */
export function pointAt(at: Point, size: Size): Omit<Label, 'element'> {
  const { x, y } = clampPoint(at, size);
  return { x: Math.round(x), y: Math.round(y), w: 0, h: 0 };
}

export function isPoint(label: Pick<Label, 'w' | 'h'>): boolean {
  return label.w === 0 && label.h === 0;
}

/** A label as an export's YOLO line has it: centre, width and height divided by the picture's. */
export function normalise(label: Omit<Label, 'element'>, { width, height }: Size): { cx: number; cy: number; w: number; h: number } {
  return { cx: (label.x + label.w / 2) / width, cy: (label.y + label.h / 2) / height, w: label.w / width, h: label.h / height };
}

/**
 * The label under a position: the index of the point nearest within `tolerance` pixels, else of the
 * smallest box holding it (a box drawn inside another stays reachable), else -1.
 */
export function hitTest(labels: readonly Omit<Label, 'element'>[], at: Point, tolerance: number): number {
  let best = -1;
  let bestPoint = Infinity;
  labels.forEach((label, index) => {
    if (!isPoint(label)) return;
    const distance = Math.hypot(label.x - at.x, label.y - at.y);
    if (distance <= tolerance && distance < bestPoint) {
      best = index;
      bestPoint = distance;
    }
  });
  if (best >= 0) return best;
  let bestArea = Infinity;
  labels.forEach((label, index) => {
    if (isPoint(label)) return;
    const inside = at.x >= label.x - tolerance / 2 && at.x <= label.x + label.w + tolerance / 2 && at.y >= label.y - tolerance / 2 && at.y <= label.y + label.h + tolerance / 2;
    const area = label.w * label.h;
    if (inside && area < bestArea) {
      best = index;
      bestArea = area;
    }
  });
  return best;
}

/** A label moved by (dx, dy), stopped at the picture's edges without changing its size. */
export function moveLabel<T extends Omit<Label, 'element'>>(label: T, dx: number, dy: number, { width, height }: Size): T {
  return {
    ...label,
    x: Math.round(clamp(label.x + dx, 0, width - label.w)),
    y: Math.round(clamp(label.y + dy, 0, height - label.h)),
  };
}
