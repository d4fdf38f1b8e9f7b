import { App } from 'antd';
import { Toast } from 'antd-mobile';
import { useMemo } from 'react';
import { useMobileMode } from './mobile-mode';

export interface Notice {
  success: (content: string) => void;
  error: (content: string) => void;
  info: (content: string) => void;
}

/** Short feedback messages: antd's message bar on desktop, a toast on the phone. */
export function useNotice(): Notice {
  const mobile = useMobileMode();
  const { message } = App.useApp();
  return useMemo<Notice>(
    () =>
      mobile
        ? {
            success: (content) => Toast.show({ icon: 'success', content }),
            error: (content) => Toast.show({ icon: 'fail', content }),
            info: (content) => Toast.show({ content }),
          }
        : {
            success: (content) => void message.success(content),
            error: (content) => void message.error(content),
            info: (content) => void message.info(content),
          },
    [mobile, message],
  );
}
