import { Alert, Empty, Modal, Select, Spin } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ServerErrorAlert } from '@/components/server-error-alert';
import { errorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { pictureSrc, useCameras, usePictures } from '../api/cameras';
import { useSampleFromPicture } from '../api/samples';
import type { Sample } from '../types';

export interface FromCameraModalProps {
  open: boolean;
  onClose: () => void;
  onCreated: (sample: Sample) => void;
}

/** Picks one of a camera's pictures and makes it a sample. */
export function FromCameraModal({ open, onClose, onCreated }: FromCameraModalProps) {
  const { t } = useTranslation('ailab');
  const cameras = useCameras(open);
  const [deviceId, setDeviceId] = useState<number>();
  const [imageId, setImageId] = useState<number>();
  const chosenDevice = deviceId ?? cameras.data?.[0]?.id;
  const pictures = usePictures(open ? chosenDevice : undefined);
  const create = useSampleFromPicture();

  const close = () => {
    create.reset();
    setImageId(undefined);
    onClose();
  };

  const submit = () => {
    if (chosenDevice === undefined || imageId === undefined) return;
    create.mutate(
      { deviceId: chosenDevice, imageId },
      {
        onSuccess: (sample) => {
          setImageId(undefined);
          onCreated(sample);
        },
      },
    );
  };

  return (
    <Modal
      open={open}
      title={t('samples.fromCamera')}
      onCancel={close}
      onOk={submit}
      okText={t('samples.makeSample')}
      okButtonProps={{ disabled: imageId === undefined, loading: create.isPending, ...{ 'data-testid': 'camera-make-sample' } }}
      width={720}
      destroyOnHidden
    >
      <Select
        className="fw-lab__toolbar"
        style={{ width: '100%' }}
        aria-label={t('samples.camera')}
        placeholder={t('samples.camera')}
        loading={cameras.isPending}
        value={chosenDevice}
        onChange={(id: number) => {
          setDeviceId(id);
          setImageId(undefined);
        }}
        options={(cameras.data ?? []).map((device) => ({ value: device.id, label: `${device.name} · ${device.sn}` }))}
        data-testid="camera-device"
      />
      <ServerErrorAlert error={cameras.error ?? pictures.error} className="fw-lab__toolbar" />
      {create.error ? <Alert type="error" showIcon className="fw-lab__toolbar" title={errorMessage(create.error)} /> : null}
      {cameras.data && cameras.data.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('samples.noCamera')} />
      ) : pictures.isPending && chosenDevice !== undefined ? (
        <Spin className="fw-lab__toolbar" />
      ) : (pictures.data ?? []).length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('samples.noPictures')} />
      ) : (
        <div className="fw-lab-pictures" role="group" aria-label={t('samples.pictures')} data-testid="camera-pictures">
          {(pictures.data ?? []).map((picture) => (
            <button
              type="button"
              key={picture.id}
              className="fw-lab-picture"
              aria-pressed={picture.id === imageId}
              onClick={() => setImageId(picture.id)}
            >
              <img src={pictureSrc(chosenDevice!, picture.id)} alt={t('samples.pictureAlt', { time: formatDateTime(picture.time) })} loading="lazy" />
              <span>{formatDateTime(picture.time)}</span>
            </button>
          ))}
        </div>
      )}
    </Modal>
  );
}
