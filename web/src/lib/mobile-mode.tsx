import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { detectMobileMode } from './client-env';

const MobileModeContext = createContext(false);

/** Tells the tree whether the phone app is in use; re-checked when the window is resized. */
export function MobileModeProvider({ children, value }: { children: ReactNode; value?: boolean }) {
  const [detected, setDetected] = useState(() => value ?? detectMobileMode());

  useEffect(() => {
    if (value !== undefined) return;
    const update = () => setDetected(detectMobileMode());
    window.addEventListener('resize', update);
    return () => window.removeEventListener('resize', update);
  }, [value]);

  return <MobileModeContext.Provider value={value ?? detected}>{children}</MobileModeContext.Provider>;
}

export function useMobileMode(): boolean {
  return useContext(MobileModeContext);
}
