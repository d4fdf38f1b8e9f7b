import { useCallback, useMemo } from 'react';
import type { AdviceDevice, Reality } from '../types';

/**
 * A device's name by id, from what is at hand: the picker's list, the device the page is on, the
 * field of the answer. A station or gauge outside them (found nearby by the server) shows as #id.
 */
export function useNames(list: AdviceDevice[] | undefined, lead: AdviceDevice | undefined, reality: Reality | undefined) {
  const known = useMemo(() => {
    const map = new Map<number, AdviceDevice>();
    for (const d of list ?? []) map.set(d.id, d);
    if (lead) map.set(lead.id, lead);
    return map;
  }, [list, lead]);
  const nameOf = useCallback((id: number) => known.get(id)?.name ?? reality?.devices.find((d) => d.id === id)?.name ?? `#${id}`, [known, reality]);
  return { known, nameOf };
}
