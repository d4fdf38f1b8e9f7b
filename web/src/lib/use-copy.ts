import { useCallback } from 'react';
import { copyText } from './copy-text';
import { useNotice } from './notice';

export interface CopyMessages {
  /** Said when the text is on the clipboard. */
  copied: string;
  /** Said when it is not (SPEC §8's message). */
  failed: string;
}

/** Copies text to the clipboard and says whether it worked. */
export function useCopy({ copied, failed }: CopyMessages) {
  const notice = useNotice();
  return useCallback(
    async (text: string) => {
      try {
        await copyText(text);
        notice.success(copied);
      } catch {
        notice.error(failed);
      }
    },
    [notice, copied, failed],
  );
}
