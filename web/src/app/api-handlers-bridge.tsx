import { App } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { setApiHandlers } from '@/lib/api-client';
import { useMobileMode } from '@/lib/mobile-mode';

/** Lets the API client show fatal server errors in the dialog style of the current layout. */
export function ApiHandlersBridge() {
  const { modal } = App.useApp();
  const mobile = useMobileMode();
  const { t } = useTranslation(['common', 'errors']);
  // Several calls failing together must not stack several dialogs.
  const dialogOpen = useRef(false);

  useEffect(
    () =>
      setApiHandlers({
        onFatal: (message) => {
          if (dialogOpen.current) return;
          dialogOpen.current = true;
          const title = t('errors:fatalTitle');
          const confirm = t('actions.confirm');
          const closed = () => {
            dialogOpen.current = false;
          };
          if (mobile) {
            void import('@/lib/mobile-feedback')
              .then(({ showAlert }) => showAlert({ title, content: message, confirmText: confirm }))
              .then(closed, closed);
          } else {
            modal.error({ title, content: message, okText: confirm, afterClose: closed });
          }
        },
      }),
    [modal, mobile, t],
  );

  return null;
}
