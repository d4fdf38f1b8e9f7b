import { useMutation } from '@tanstack/react-query';
import { download } from '@/lib/api-client';
import { farmTime } from '@/lib/farm-time';

/** Fetches the caller's devices as an XLSX workbook, in the caller's language. */
export async function exportDevices(): Promise<{ blob: Blob; filename: string }> {
  const file = await download('/export/device/info');
  return { blob: file.blob, filename: file.filename ?? `devices-${farmTime().format('YYYYMMDD')}.xlsx` };
}

/** Hands a file to the browser as a download. */
export function saveFile(blob: Blob, filename: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.rel = 'noopener';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Revoked after the click has been handled, or the download may be cancelled.
  window.setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function useExportDevices({ onSuccess }: { onSuccess?: () => void } = {}) {
  return useMutation({
    mutationFn: exportDevices,
    onSuccess: ({ blob, filename }) => {
      saveFile(blob, filename);
      onSuccess?.();
    },
  });
}
