import { describe, expect, it } from 'vitest';
import { boxFromDrag, hitTest, MIN_BOX, moveLabel, normalise, pointAt, toPicture } from './geometry';

const size = { width: 640, height: 480 };

describe('toPicture', () => {
  it('scales a screen position into the picture\u2019s pixels', () => {
    // The picture drawn at half size, 100 px from the left and 50 from the top.
    const rect = { left: 100, top: 50, width: 320, height: 240 };
    expect(toPicture(260, 170, rect, size)).toEqual({ x: 320, y: 240 });
    expect(toPicture(100, 50, rect, size)).toEqual({ x: 0, y: 0 });
  });

  it('keeps a pointer dragged off the picture on its edge', () => {
    const rect = { left: 0, top: 0, width: 640, height: 480 };
    expect(toPicture(-30, 900, rect, size)).toEqual({ x: 0, y: 480 });
  });
});

describe('boxFromDrag', () => {
  it('spans the drag whichever corner it started from', () => {
    const down = boxFromDrag({ x: 10, y: 20 }, { x: 110, y: 70 }, size);
    const up = boxFromDrag({ x: 110, y: 70 }, { x: 10, y: 20 }, size);
    expect(down).toEqual({ x: 10, y: 20, w: 100, h: 50 });
    expect(up).toEqual(down);
  });

  it('rounds to whole pixels and stops at the picture\u2019s edges', () => {
    expect(boxFromDrag({ x: 600.4, y: 400.6 }, { x: 700, y: 520 }, size)).toEqual({ x: 600, y: 401, w: 40, h: 79 });
  });

  it('draws nothing for a click or a line', () => {
    expect(boxFromDrag({ x: 50, y: 50 }, { x: 50 + MIN_BOX - 1, y: 90 }, size)).toBeNull();
    expect(boxFromDrag({ x: 50, y: 50 }, { x: 90, y: 51 }, size)).toBeNull();
  });
});

describe('normalise', () => {
  it('gives the YOLO centre and size divided by the picture\u2019s', () => {
    expect(normalise({ x: 64, y: 48, w: 128, h: 96 }, size)).toEqual({ cx: 0.2, cy: 0.2, w: 0.2, h: 0.2 });
  });

  it('keeps a point\u2019s size zero', () => {
    expect(normalise(pointAt({ x: 320, y: 120 }, size), size)).toEqual({ cx: 0.5, cy: 0.25, w: 0, h: 0 });
  });
});

describe('hitTest', () => {
  const labels = [
    { x: 0, y: 0, w: 400, h: 300 },
    { x: 100, y: 100, w: 50, h: 50 },
    { x: 300, y: 200, w: 0, h: 0 },
  ];

  it('finds the smallest box under the pointer, so a box inside another can be picked', () => {
    expect(hitTest(labels, { x: 120, y: 120 }, 4)).toBe(1);
    expect(hitTest(labels, { x: 20, y: 250 }, 4)).toBe(0);
  });

  it('prefers a point within the tolerance over the box around it', () => {
    expect(hitTest(labels, { x: 303, y: 202 }, 6)).toBe(2);
    expect(hitTest(labels, { x: 310, y: 200 }, 6)).toBe(0);
  });

  it('finds nothing off every label', () => {
    expect(hitTest(labels, { x: 500, y: 400 }, 6)).toBe(-1);
  });
});

describe('moveLabel', () => {
  it('moves a box and stops it at the edge without shrinking it', () => {
    const box = { element: 'moth', x: 600, y: 10, w: 30, h: 20 };
    expect(moveLabel(box, 5, 5, size)).toEqual({ element: 'moth', x: 605, y: 15, w: 30, h: 20 });
    expect(moveLabel(box, 100, -50, size)).toEqual({ element: 'moth', x: 610, y: 0, w: 30, h: 20 });
  });
});
