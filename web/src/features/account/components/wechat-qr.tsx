import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Flex, Spin, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { ServerErrorAlert } from '@/components/server-error-alert';
import type { QRScan, ScanResult } from '../api/bindings';

const POLL_MS = 2000;

export interface WeChatQRProps {
  /** Key of the QR code query: a new key makes a new code. */
  queryKey: readonly unknown[];
  make: () => Promise<QRScan>;
  poll: (token: string, signal?: AbortSignal) => Promise<ScanResult>;
  /** The scan reached a final state (bound, taken, unlinked, done). */
  onResult: (result: ScanResult) => void;
  hint: string;
}

/**
 * A WeChat QR code and its result, polled every two seconds until the scan ends it or it expires;
 * an expired code offers a new one.
 */
export function WeChatQR({ queryKey, make, poll, onResult, hint }: WeChatQRProps) {
  const { t } = useTranslation('account');
  const qr = useQuery({ queryKey, queryFn: make, staleTime: Infinity, gcTime: 0, retry: false });
  const token = qr.data?.token;
  const result = useQuery({
    queryKey: [...queryKey, 'result', token],
    queryFn: ({ signal }) => poll(token as string, signal),
    enabled: Boolean(token),
    gcTime: 0,
    refetchInterval: (query) => (query.state.data && query.state.data.status !== 'pending' ? false : POLL_MS),
  });
  const status = result.data?.status;
  useEffect(() => {
    if (result.data && status !== 'pending' && status !== 'expired') onResult(result.data);
  }, [result.data, status, onResult]);

  if (qr.isPending) {
    return (
      <Flex justify="center" className="fw-wechat-qr">
        <Spin />
      </Flex>
    );
  }
  if (qr.isError) return <ServerErrorAlert error={qr.error} />;
  return (
    <Flex vertical align="center" gap={12} className="fw-wechat-qr">
      <div className={status === 'expired' ? 'fw-wechat-qr__code fw-wechat-qr__code--expired' : 'fw-wechat-qr__code'}>
        <img src={qr.data.qrcodeUrl} alt={t('wechat.qrAlt')} width={200} height={200} />
      </div>
      {status === 'expired' ? (
        <Alert
          type="warning"
          showIcon
          title={t('wechat.expired')}
          action={
            <Button size="small" onClick={() => void qr.refetch()}>
              {t('wechat.refresh')}
            </Button>
          }
        />
      ) : (
        <Typography.Text type="secondary">{hint}</Typography.Text>
      )}
    </Flex>
  );
}
