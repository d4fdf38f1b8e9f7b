import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '@/lib/api-client';
import { saveFile } from '@/lib/save-file';
import { downloadJob, getJob, startExport } from '../api/briefings';
import type { Job } from '../types';

/** A file being made: which preset, and how far its job got. */
export interface FileExport {
  configId: number;
  format: 'pdf' | 'xlsx';
  job: Job | null;
  /** SPEC's message and the reason, once it failed. */
  error?: { message: string; reason?: string };
  done?: boolean;
}

const POLL_MS = 700;

function sleep(ms: number) {
  return new Promise((resolve) => window.setTimeout(resolve, ms));
}

/**
 * Makes a briefing file through the export queue: queues it, follows its progress and downloads it
 * when ready. One file at a time per page.
 */
export function useFileExport() {
  const { t } = useTranslation('briefing');
  const [current, setCurrent] = useState<FileExport | null>(null);

  const run = useCallback(
    async (configId: number, format: 'pdf' | 'xlsx') => {
      setCurrent({ configId, format, job: null });
      try {
        let job = await startExport(configId, format);
        setCurrent({ configId, format, job });
        while (job.status === 'queued' || job.status === 'running') {
          await sleep(POLL_MS);
          job = await getJob(job.taskId);
          setCurrent({ configId, format, job });
        }
        if (job.status === 'failed') {
          setCurrent({ configId, format, job, error: { message: job.message ?? t('file.failed'), reason: job.reason } });
          return;
        }
        const file = await downloadJob(job.taskId);
        saveFile(file.blob, file.filename ?? `briefing.${format}`);
        setCurrent({ configId, format, job, done: true });
      } catch (error) {
        setCurrent({ configId, format, job: null, error: { message: t('file.failed'), reason: errorMessage(error) } });
      }
    },
    [t],
  );

  return { current, run, clear: useCallback(() => setCurrent(null), []) };
}
