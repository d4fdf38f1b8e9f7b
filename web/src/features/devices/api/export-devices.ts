import { useMutation } from '@tanstack/react-query';
import { download } from '@/lib/api-client';
import { farmTime } from '@/lib/farm-time';
import { saveFile } from '@/lib/save-file';

/** Fetches the caller's devices as an XLSX workbook, in the caller's language. */
export async function exportDevices(): Promise<{ blob: Blob; filename: string }> {
  const file = await download('/export/device/info');
  return { blob: file.blob, filename: file.filename ?? `devices-${farmTime().format('YYYYMMDD')}.xlsx` };
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
