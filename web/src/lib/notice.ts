import { App } from 'antd';
import { useMemo } from 'react';
import { useMobileMode } from './mobile-mode';

export interface Notice {
  success: (content: string) => void;
  error: (content: string) => void;
  info: (content: string) => void;
}

async function toast(content: string, icon?: 'success' | 'fail') {
  (await import('./mobile-feedback')).showToast(content, icon);
}

/** Short feedback messages: antd's message bar on desktop, a toast on the phone. */
export function useNotice(): Notice {
  const mobile = useMobileMode();
  const { message } = App.useApp();
  return useMemo<Notice>(
    () =>
      mobile
        ? {
            success: (content) => void toast(content, 'success'),
            error: (content) => void toast(content, 'fail'),
            info: (content) => void toast(content),
          }
        : {
            success: (content) => void message.success(content),
            error: (content) => void message.error(content),
            info: (content) => void message.info(content),
          },
    [mobile, message],
  );
}
