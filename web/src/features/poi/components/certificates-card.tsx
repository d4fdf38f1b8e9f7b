import { Alert, Button, Card, Modal, Popconfirm, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ServerErrorAlert } from '@/components/server-error-alert';
import { formatDateTime } from '@/lib/format';
import { useNotice } from '@/lib/notice';
import { saveFile } from '@/lib/save-file';
import { useCertificates, useIssueCertificate, useRevokeCertificate } from '../api/device-certificates';
import type { DeviceCertificate, IssuedCertificate } from '../types';

function pemFile(text: string, filename: string) {
  saveFile(new Blob([text], { type: 'application/x-pem-file' }), filename);
}

/**
 * The device's certificates, for its owner: a device holding one connects over TLS without its key.
 * A new certificate's key is shown once, for download.
 */
export function CertificatesCard({ deviceId }: { deviceId: number }) {
  const { t } = useTranslation('poi');
  const notice = useNotice();
  const list = useCertificates(deviceId);
  const [issued, setIssued] = useState<IssuedCertificate | null>(null);
  const issue = useIssueCertificate(deviceId, { onSuccess: setIssued });
  const revoke = useRevokeCertificate(deviceId, { onSuccess: () => notice.success(t('certificates.revoked')) });

  const columns = [
    {
      title: t('certificates.serial'),
      dataIndex: 'serial',
      render: (serial: string) => <Typography.Text code>{serial.slice(0, 16)}</Typography.Text>,
    },
    { title: t('certificates.issuedAt'), dataIndex: 'createdAt', render: (v: number) => formatDateTime(v) },
    { title: t('certificates.expiresAt'), dataIndex: 'notAfter', render: (v: number) => formatDateTime(v) },
    {
      title: t('certificates.status'),
      dataIndex: 'revokedAt',
      render: (v: number | null) =>
        v === null ? <Tag color="success">{t('certificates.valid')}</Tag> : <Tag>{t('certificates.revokedAt', { time: formatDateTime(v) })}</Tag>,
    },
    {
      title: '',
      key: 'action',
      render: (_: unknown, c: DeviceCertificate) =>
        c.revokedAt === null && (
          <Popconfirm
            title={t('certificates.revokeConfirm')}
            description={t('certificates.revokeHint')}
            okText={t('certificates.revoke')}
            okButtonProps={{ danger: true }}
            onConfirm={() => revoke.mutateAsync(c.serial)}
          >
            <Button type="link" danger size="small">
              {t('certificates.revoke')}
            </Button>
          </Popconfirm>
        ),
    },
  ];

  return (
    <Card
      variant="borderless"
      title={t('certificates.title')}
      className="fw-poi-section"
      data-testid="poi-certificates"
      extra={
        <Button onClick={() => issue.mutate()} loading={issue.isPending}>
          {t('certificates.issue')}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{t('certificates.intro')}</Typography.Paragraph>
      <ServerErrorAlert error={issue.error ?? revoke.error ?? list.error} />
      <Table<DeviceCertificate>
        rowKey="serial"
        size="small"
        pagination={false}
        loading={list.isPending}
        dataSource={list.data ?? []}
        columns={columns}
        locale={{ emptyText: <span className="fw-table-empty">{t('certificates.none')}</span> }}
        scroll={{ x: true }}
      />
      <Modal
        open={issued !== null}
        title={t('certificates.issuedTitle', { sn: issued?.sn ?? '' })}
        onCancel={() => setIssued(null)}
        footer={<Button onClick={() => setIssued(null)}>{t('certificates.done')}</Button>}
        destroyOnHidden
      >
        {issued && (
          <div className="fw-poi-cert-issued" data-testid="poi-certificate-issued">
            <Alert type="warning" showIcon title={t('certificates.once')} />
            <Typography.Paragraph>{t('certificates.files')}</Typography.Paragraph>
            <Space wrap>
              <Button type="primary" onClick={() => pemFile(issued.certificate, `${issued.sn}.crt`)}>
                {t('certificates.downloadCert', { file: `${issued.sn}.crt` })}
              </Button>
              <Button type="primary" onClick={() => pemFile(issued.key, `${issued.sn}.key`)}>
                {t('certificates.downloadKey', { file: `${issued.sn}.key` })}
              </Button>
              <Button onClick={() => pemFile(issued.ca, 'device-ca.pem')}>{t('certificates.downloadCa', { file: 'device-ca.pem' })}</Button>
              <Button onClick={() => pemFile(`${issued.certificate}${issued.key}${issued.ca}`, `${issued.sn}-bundle.pem`)}>
                {t('certificates.downloadBundle', { file: `${issued.sn}-bundle.pem` })}
              </Button>
            </Space>
            <Typography.Text type="secondary">{t('certificates.expires', { time: formatDateTime(issued.notAfter) })}</Typography.Text>
          </div>
        )}
      </Modal>
    </Card>
  );
}
