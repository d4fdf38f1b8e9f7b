import { useState } from 'react';

/**
 * True from the first render where `wanted` is true on: a dialog or drawer whose code loads when it
 * is first opened stays mounted afterwards, so it can play its closing animation and opens at once
 * the next time.
 */
export function useWanted(wanted: boolean): boolean {
  const [was, setWas] = useState(wanted);
  if (wanted && !was) setWas(true);
  return was || wanted;
}
