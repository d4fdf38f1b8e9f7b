import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotice } from '@/lib/notice';

/** Copies text to the clipboard and says whether it worked. */
export function useCopy() {
  const { t } = useTranslation('sharing');
  const notice = useNotice();
  return useCallback(
    async (text: string) => {
      try {
        if (!navigator.clipboard) throw new Error('no clipboard');
        await navigator.clipboard.writeText(text);
        notice.success(t('dialog.copied'));
      } catch {
        notice.error(t('dialog.copyFailed'));
      }
    },
    [notice, t],
  );
}
