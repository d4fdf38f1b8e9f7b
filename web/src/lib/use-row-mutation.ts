import type { MutateOptions } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { errorMessage } from './api-client';
import { useNotice } from './notice';
import { useIdSet } from './use-id-set';

type Mutate<TData, TVariables> = (variables: TVariables, options?: MutateOptions<TData, Error, TVariables>) => void;

/**
 * A call made for one row of a list (a switch, a deletion, a retry): the ids of the rows with a
 * call in flight, and `run`, which makes the call for a row and says how it went.
 */
export function useRowMutation<TData, TVariables>(mutate: Mutate<TData, TVariables>) {
  const notice = useNotice();
  const { ids, add, remove } = useIdSet();
  const run = useCallback(
    (id: number, variables: TVariables, success: string) => {
      add(id);
      mutate(variables, {
        onSuccess: () => notice.success(success),
        onError: (error) => notice.error(errorMessage(error)),
        onSettled: () => remove(id),
      });
    },
    [mutate, notice, add, remove],
  );
  return useMemo(() => ({ ids, run }), [ids, run]);
}
