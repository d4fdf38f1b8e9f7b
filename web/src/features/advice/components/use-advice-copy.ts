import { useTranslation } from 'react-i18next';
import { useCopy } from '@/lib/use-copy';
import { useMobileMode } from '@/lib/mobile-mode';

/**
 * Copies an answer or a code block and says so; when the browser refuses, SPEC §8's message: on
 * the phone, to press and hold the text instead.
 */
export function useAdviceCopy() {
  const { t } = useTranslation('advice');
  const mobile = useMobileMode();
  return useCopy({ copied: t('copy.copied'), failed: mobile ? t('copy.failedHold') : t('copy.failed') });
}
