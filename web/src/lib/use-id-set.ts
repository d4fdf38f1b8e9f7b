import { useCallback, useMemo, useState } from 'react';

/** Ids of rows with a call in flight (a switch being saved, a row being deleted). */
export function useIdSet() {
  const [ids, setIds] = useState<ReadonlySet<number>>(new Set());
  const add = useCallback((id: number) => setIds((current) => new Set(current).add(id)), []);
  const remove = useCallback(
    (id: number) =>
      setIds((current) => {
        const next = new Set(current);
        next.delete(id);
        return next;
      }),
    [],
  );
  return useMemo(() => ({ ids, add, remove }), [ids, add, remove]);
}
