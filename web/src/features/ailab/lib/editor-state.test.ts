import { describe, expect, it } from 'vitest';
import { editorReducer, initialEditor, type EditorEvent, type EditorState } from './editor-state';

const size = { width: 200, height: 100 };

function run(state: EditorState, ...events: EditorEvent[]): EditorState {
  return events.reduce(editorReducer, state);
}

describe('editorReducer', () => {
  it('adds a label naming the chosen element and selects it', () => {
    const state = run(initialEditor('moth'), { type: 'add', label: { x: 1, y: 2, w: 30, h: 40 } });
    expect(state.labels).toEqual([{ element: 'moth', x: 1, y: 2, w: 30, h: 40 }]);
    expect(state.selected).toBe(0);
    expect(state.dirty).toBe(true);
  });

  it('adds nothing while there is no element to name', () => {
    const state = run(initialEditor(''), { type: 'add', label: { x: 1, y: 2, w: 30, h: 40 } });
    expect(state.labels).toEqual([]);
    expect(state.dirty).toBe(false);
  });

  it('deletes the selected label only', () => {
    const state = run(
      initialEditor('moth'),
      { type: 'add', label: { x: 1, y: 2, w: 30, h: 40 } },
      { type: 'add', label: { x: 50, y: 50, w: 0, h: 0 } },
      { type: 'select', index: 0 },
      { type: 'delete' },
    );
    expect(state.labels).toEqual([{ element: 'moth', x: 50, y: 50, w: 0, h: 0 }]);
    expect(state.selected).toBe(-1);
    expect(run(state, { type: 'delete' }).labels).toHaveLength(1);
  });

  it('draws the next label with a newly picked element, leaving the one just drawn as it is', () => {
    const state = run(
      initialEditor('moth'),
      { type: 'add', label: { x: 1, y: 2, w: 30, h: 40 } },
      { type: 'element', element: 'beetle' },
      { type: 'add', label: { x: 5, y: 5, w: 0, h: 0 } },
    );
    expect(state.labels.map((label) => label.element)).toEqual(['moth', 'beetle']);
  });

  it('renames the selected label only when asked', () => {
    const drawn = run(initialEditor('moth'), { type: 'add', label: { x: 1, y: 2, w: 30, h: 40 } });
    const renamed = run(drawn, { type: 'relabel', element: 'beetle' });
    expect(renamed.labels[0].element).toBe('beetle');
    expect(renamed.element).toBe('moth');
    expect(run(renamed, { type: 'select', index: -1 }, { type: 'relabel', element: 'wasp' }).labels[0].element).toBe('beetle');
  });

  it('moves a label within the picture', () => {
    const state = run(
      initialEditor('moth'),
      { type: 'add', label: { x: 150, y: 10, w: 30, h: 40 } },
      { type: 'move', index: 0, dx: 40, dy: -20, size },
    );
    expect(state.labels[0]).toMatchObject({ x: 170, y: 0 });
  });

  it('is clean after loading or saving, keeping the element already chosen', () => {
    const edited = run(initialEditor('beetle'), { type: 'add', label: { x: 0, y: 0, w: 10, h: 10 } });
    const loaded = run(edited, { type: 'load', labels: [{ element: 'moth', x: 0, y: 0, w: 0, h: 0 }], element: 'moth' });
    expect(loaded).toMatchObject({ dirty: false, selected: -1, element: 'beetle' });
    expect(run(edited, { type: 'saved' }).dirty).toBe(false);
  });
});
