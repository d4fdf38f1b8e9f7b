/** What the labelling page draws on a press of the pointer. */
export type DrawMode = 'box' | 'point' | 'select';

/** What a key press asks the labelling page to do. */
export type KeyAction =
  | { type: 'element'; index: number }
  | { type: 'mode'; mode: DrawMode }
  | { type: 'delete' }
  | { type: 'deselect' }
  | { type: 'save' }
  | { type: 'previous' }
  | { type: 'next' }
  | { type: 'help' };

export interface KeyPress {
  key: string;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
  /** The tag of the element the key was pressed in (INPUT, TEXTAREA…). */
  targetTag?: string;
  /** Whether the element the key was pressed in takes text (contenteditable). */
  targetEditable?: boolean;
}

const TYPING = new Set(['INPUT', 'TEXTAREA', 'SELECT']);

/**
 * The action a key press stands for, or null. Keys typed into a field are the field's, except
 * Ctrl+S (or ⌘S), which saves from anywhere.
 */
export function keyAction(press: KeyPress): KeyAction | null {
  const command = press.ctrlKey || press.metaKey;
  const key = press.key;
  if (command && !press.altKey && key.toLowerCase() === 's') return { type: 'save' };
  if (command || press.altKey) return null;
  if ((press.targetTag && TYPING.has(press.targetTag.toUpperCase())) || press.targetEditable) return null;
  if (/^[1-9]$/.test(key)) return { type: 'element', index: Number(key) - 1 };
  switch (key.toLowerCase()) {
    case 'b':
      return { type: 'mode', mode: 'box' };
    case 'p':
      return { type: 'mode', mode: 'point' };
    case 'v':
      return { type: 'mode', mode: 'select' };
    case 'delete':
    case 'backspace':
      return { type: 'delete' };
    case 'escape':
      return { type: 'deselect' };
    case 'arrowleft':
      return { type: 'previous' };
    case 'arrowright':
      return { type: 'next' };
    case '?':
      return { type: 'help' };
    default:
      return null;
  }
}

/** The shortcuts as the help lists them: keys and the text key of what they do. */
export const SHORTCUTS = [
  { keys: ['1', '…', '9'], action: 'pickElement' },
  { keys: ['B'], action: 'boxMode' },
  { keys: ['P'], action: 'pointMode' },
  { keys: ['V'], action: 'selectMode' },
  { keys: ['Delete'], action: 'deleteSelected' },
  { keys: ['Esc'], action: 'deselect' },
  { keys: ['Ctrl', 'S'], action: 'save' },
  { keys: ['←'], action: 'previous' },
  { keys: ['→'], action: 'next' },
  { keys: ['?'], action: 'help' },
] as const;
