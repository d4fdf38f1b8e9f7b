import { describe, expect, it } from 'vitest';
import { keyAction } from './shortcuts';

describe('keyAction', () => {
  it('picks the n-th element with the digits 1 to 9', () => {
    expect(keyAction({ key: '1' })).toEqual({ type: 'element', index: 0 });
    expect(keyAction({ key: '9' })).toEqual({ type: 'element', index: 8 });
    expect(keyAction({ key: '0' })).toBeNull();
  });

  it('switches between boxes, points and selecting, in either case', () => {
    expect(keyAction({ key: 'b' })).toEqual({ type: 'mode', mode: 'box' });
    expect(keyAction({ key: 'P' })).toEqual({ type: 'mode', mode: 'point' });
    expect(keyAction({ key: 'v' })).toEqual({ type: 'mode', mode: 'select' });
  });

  it('deletes with Delete or Backspace, and steps through samples with the arrows', () => {
    expect(keyAction({ key: 'Delete' })).toEqual({ type: 'delete' });
    expect(keyAction({ key: 'Backspace' })).toEqual({ type: 'delete' });
    expect(keyAction({ key: 'ArrowLeft' })).toEqual({ type: 'previous' });
    expect(keyAction({ key: 'ArrowRight' })).toEqual({ type: 'next' });
    expect(keyAction({ key: 'Escape' })).toEqual({ type: 'deselect' });
    expect(keyAction({ key: '?' })).toEqual({ type: 'help' });
  });

  it('saves with Ctrl+S or \u2318S, even from a text field', () => {
    expect(keyAction({ key: 's', ctrlKey: true })).toEqual({ type: 'save' });
    expect(keyAction({ key: 'S', metaKey: true, targetTag: 'INPUT' })).toEqual({ type: 'save' });
  });

  it('leaves keys typed into a field, and other chords, alone', () => {
    expect(keyAction({ key: 'b', targetTag: 'INPUT' })).toBeNull();
    expect(keyAction({ key: 'Backspace', targetTag: 'textarea' })).toBeNull();
    expect(keyAction({ key: '3', targetEditable: true })).toBeNull();
    expect(keyAction({ key: 'b', ctrlKey: true })).toBeNull();
    expect(keyAction({ key: 's', ctrlKey: true, altKey: true })).toBeNull();
  });
});
