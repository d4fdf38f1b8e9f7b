import { useEffect, useState } from 'react';

/** The current time, refreshed every `everyMs`, so "5 minutes ago" and "the last hour" move on while the page is open. */
export function useNow(everyMs = 60_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), everyMs);
    return () => window.clearInterval(timer);
  }, [everyMs]);
  return now;
}
