import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { setApiHandlers } from '@/lib/api-client';
import { useMobileMode } from '@/lib/mobile-mode';

interface DialogOptions {
  title: string;
  content: string;
  okText: string;
  afterClose: () => void;
}

let desktopDialog: ((options: DialogOptions) => void) | null = null;

/** Set by the antd shell while it is mounted: the desktop's error dialog in the current theme. */
export function setDesktopDialog(show: ((options: DialogOptions) => void) | null) {
  desktopDialog = show;
}

/**
 * Lets the API client show fatal server errors in the dialog style of the current layout: the
 * phone's (antd-mobile, loaded on first use) or the desktop's (antd's, when its shell is on the
 * page). A page drawn without either (the login page) shows its errors itself.
 */
export function ApiHandlersBridge() {
  const mobile = useMobileMode();
  const { t } = useTranslation(['common', 'errors']);
  // Several calls failing together must not stack several dialogs.
  const dialogOpen = useRef(false);

  useEffect(
    () =>
      setApiHandlers({
        onFatal: (message) => {
          if (dialogOpen.current) return;
          const title = t('errors:fatalTitle');
          const confirm = t('actions.confirm');
          const closed = () => {
            dialogOpen.current = false;
          };
          if (mobile) {
            dialogOpen.current = true;
            void import('@/lib/mobile-feedback')
              .then(({ showAlert }) => showAlert({ title, content: message, confirmText: confirm }))
              .then(closed, closed);
          } else if (desktopDialog) {
            dialogOpen.current = true;
            desktopDialog({ title, content: message, okText: confirm, afterClose: closed });
          }
        },
      }),
    [mobile, t],
  );

  return null;
}
