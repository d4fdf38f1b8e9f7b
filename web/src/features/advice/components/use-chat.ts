import { useCallback, useEffect, useReducer, useRef } from 'react';
import { errorMessage, isApiError } from '@/lib/api-client';
import { askQuestion } from '../api/ask-question';
import type { FieldChoice } from '../api/keys';
import { chatReducer, isAnswering } from '../lib/chat';

/**
 * The questions asked about a field and their answers, each streamed in as it arrives. One answer
 * at a time; leaving the page (or stopping) ends the one under way.
 */
export function useChat(field: FieldChoice) {
  const [turns, dispatch] = useReducer(chatReducer, []);
  const running = useRef<{ id: number; controller: AbortController } | null>(null);
  const nextId = useRef(1);

  useEffect(() => () => running.current?.controller.abort(), []);

  const ask = useCallback(
    async (question: string) => {
      const id = nextId.current++;
      const controller = new AbortController();
      running.current = { id, controller };
      dispatch({ type: 'ask', id, question });
      try {
        for await (const event of askQuestion(field, question, controller.signal)) dispatch({ type: 'event', id, event });
        dispatch({ type: 'ended', id });
      } catch (error) {
        if (controller.signal.aborted) return;
        // Refused before the answer began (an ApiError), or the connection broke off mid-answer.
        dispatch(isApiError(error) ? { type: 'refused', id, message: errorMessage(error) } : { type: 'ended', id });
      } finally {
        if (running.current?.id === id) running.current = null;
      }
    },
    [field],
  );

  const stop = useCallback(() => {
    const current = running.current;
    if (!current) return;
    current.controller.abort();
    dispatch({ type: 'stop', id: current.id });
  }, []);

  return { turns, ask, stop, answering: isAnswering(turns) };
}
