import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotice } from '@/lib/notice';

/** Copies text to the clipboard and says whether it worked (SPEC §8's message when it did not). */
export function useCopy() {
  const { t } = useTranslation('integration');
  const notice = useNotice();
  return useCallback(
    async (text: string) => {
      try {
        if (!navigator.clipboard) throw new Error('no clipboard');
        await navigator.clipboard.writeText(text);
        notice.success(t('secret.copied'));
      } catch {
        notice.error(t('secret.copyFailed'));
      }
    },
    [notice, t],
  );
}
