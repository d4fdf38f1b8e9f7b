import type { Label } from '../types';
import { moveLabel, type Size } from './geometry';
import type { DrawMode } from './shortcuts';

/** The labelling page's working copy of one sample's labels. */
export interface EditorState {
  labels: Label[];
  /** The index of the selected label, or -1. */
  selected: number;
  mode: DrawMode;
  /** The identifier of the element new labels name, or '' when there is none to name. */
  element: string;
  /** Changed since loaded or saved. */
  dirty: boolean;
}

export type EditorEvent =
  | { type: 'load'; labels: Label[]; element: string }
  | { type: 'saved' }
  | { type: 'add'; label: Omit<Label, 'element'> }
  | { type: 'select'; index: number }
  | { type: 'move'; index: number; dx: number; dy: number; size: Size }
  | { type: 'delete' }
  | { type: 'mode'; mode: DrawMode }
  | { type: 'element'; element: string }
  | { type: 'relabel'; element: string };

export function initialEditor(element = ''): EditorState {
  return { labels: [], selected: -1, mode: 'box', element, dirty: false };
}

export function editorReducer(state: EditorState, event: EditorEvent): EditorState {
  switch (event.type) {
    case 'load':
      return { ...state, labels: event.labels, selected: -1, dirty: false, element: state.element || event.element };
    case 'saved':
      return { ...state, dirty: false };
    case 'add':
      if (!state.element) return state;
      return { ...state, labels: [...state.labels, { element: state.element, ...event.label }], selected: state.labels.length, dirty: true };
    case 'select':
      return { ...state, selected: event.index >= 0 && event.index < state.labels.length ? event.index : -1 };
    case 'move': {
      const label = state.labels[event.index];
      if (!label || (event.dx === 0 && event.dy === 0)) return state;
      const labels = state.labels.slice();
      labels[event.index] = moveLabel(label, event.dx, event.dy, event.size);
      return { ...state, labels, dirty: true };
    }
    case 'delete':
      if (state.selected < 0) return state;
      return { ...state, labels: state.labels.filter((_, index) => index !== state.selected), selected: -1, dirty: true };
    case 'mode':
      return { ...state, mode: event.mode };
    case 'element':
      return { ...state, element: event.element };
    case 'relabel': {
      const selected = state.labels[state.selected];
      if (!selected || selected.element === event.element) return state;
      const labels = state.labels.slice();
      labels[state.selected] = { ...selected, element: event.element };
      return { ...state, labels, dirty: true };
    }
  }
}
