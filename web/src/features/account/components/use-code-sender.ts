import { useMutation } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { CodeSent } from '../api/bindings';

/**
 * Asking for a verification code: the call, the ticket it answered with, where the code went, and
 * the seconds left before another may be asked for (the server refuses sooner ones anyway).
 */
export function useCodeSender(send: () => Promise<CodeSent>) {
  const [sent, setSent] = useState<CodeSent | null>(null);
  const [wait, setWait] = useState(0);
  const mutation = useMutation({
    mutationFn: send,
    onSuccess: (answer) => {
      setSent(answer);
      setWait(answer.resendIn);
    },
  });
  useEffect(() => {
    if (wait <= 0) return;
    const timer = window.setTimeout(() => setWait((left) => left - 1), 1000);
    return () => window.clearTimeout(timer);
  }, [wait]);
  const reset = () => {
    setSent(null);
    setWait(0);
    mutation.reset();
  };
  return { mutation, sent, wait, reset };
}
