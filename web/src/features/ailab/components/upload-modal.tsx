import { InboxOutlined } from '@ant-design/icons';
import { Alert, Form, Input, Modal, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '@/lib/api-client';
import { useUploadSample } from '../api/samples';
import type { Sample } from '../types';

export interface UploadModalProps {
  open: boolean;
  onClose: () => void;
  onUploaded: (sample: Sample) => void;
}

/** Uploads JPEG or PNG pictures as samples, one call each; the server judges each file by its bytes. */
export function UploadModal({ open, onClose, onUploaded }: UploadModalProps) {
  const { t } = useTranslation('ailab');
  const upload = useUploadSample();
  const [tag, setTag] = useState('');
  const [location, setLocation] = useState('');
  const [failures, setFailures] = useState<{ name: string; message: string }[]>([]);

  const close = () => {
    setFailures([]);
    onClose();
  };

  return (
    <Modal open={open} title={t('samples.upload')} onCancel={close} footer={null} destroyOnHidden>
      <Form layout="vertical">
        <Form.Item label={t('samples.tag')} htmlFor="upload-tag">
          <Input id="upload-tag" value={tag} onChange={(event) => setTag(event.target.value)} maxLength={32} data-testid="upload-tag" />
        </Form.Item>
        <Form.Item label={t('samples.location')} htmlFor="upload-location">
          <Input id="upload-location" value={location} onChange={(event) => setLocation(event.target.value)} maxLength={64} />
        </Form.Item>
      </Form>
      <Upload.Dragger
        multiple
        accept="image/jpeg,image/png,.jpg,.jpeg,.png"
        showUploadList={false}
        disabled={upload.isPending}
        customRequest={({ file, onSuccess, onError }) => {
          const name = (file as File).name;
          upload.mutate(
            { file: file as Blob, tag: tag.trim(), location: location.trim() },
            {
              onSuccess: (sample) => {
                setFailures((list) => list.filter((failure) => failure.name !== name));
                onSuccess?.(sample);
                onUploaded(sample);
              },
              onError: (error) => {
                setFailures((list) => [...list.filter((failure) => failure.name !== name), { name, message: errorMessage(error) }]);
                onError?.(error);
              },
            },
          );
        }}
        data-testid="upload-dragger"
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p className="ant-upload-text">{t('samples.uploadHint')}</p>
        <p className="ant-upload-hint">{t('samples.uploadLimits')}</p>
      </Upload.Dragger>
      {failures.map((failure) => (
        <Alert
          key={failure.name}
          type="error"
          showIcon
          role="alert"
          style={{ marginTop: 12 }}
          title={t('uploadFailed')}
          description={`${failure.name}: ${failure.message}`}
          data-testid="upload-error"
        />
      ))}
    </Modal>
  );
}
