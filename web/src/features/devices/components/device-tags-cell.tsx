import { CloseOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Alert, Button, Flex, Input, Popconfirm, Popover, Space, Spin, Tag, Typography, type InputRef } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '@/lib/api-client';
import { useNotice } from '@/lib/notice';
import { useAddDeviceTag } from '../api/add-device-tag';
import { useDeleteTag } from '../api/delete-tag';
import { useRemoveDeviceTag } from '../api/remove-device-tag';
import { useTags } from '../api/get-tags';
import type { Device, Tag as DeviceTag } from '../types';

/** Picks one of the account's tags for a device, or makes a new one; also deletes tags. */
function TagPicker({ device }: { device: Pick<Device, 'id' | 'name' | 'tags'> }) {
  const { t } = useTranslation('devices');
  const notice = useNotice();
  const tags = useTags();
  const add = useAddDeviceTag();
  const remove = useDeleteTag();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const input = useRef<InputRef>(null);
  // The picker opens to type a new tag; the popup is placed after mounting, so focus once it shows.
  useEffect(() => {
    const frame = requestAnimationFrame(() => input.current?.focus({ preventScroll: true }));
    return () => cancelAnimationFrame(frame);
  }, []);

  const onDevice = new Set(device.tags.map((tag) => tag.tagId));
  const available = (tags.data ?? []).filter((tag) => !onDevice.has(tag.tagId));
  const busy = add.isPending;

  // Shown in the picker, beside what was tried, rather than as a toast.
  const fail = (cause: unknown) => setError(errorMessage(cause));

  const addTag = async (tag: DeviceTag) => {
    setError(null);
    try {
      await add.mutateAsync({ deviceId: device.id, tagId: tag.tagId });
    } catch (cause) {
      fail(cause);
    }
  };

  const createAndAdd = async () => {
    const trimmed = name.trim();
    if (!trimmed) return;
    setError(null);
    try {
      await add.mutateAsync({ deviceId: device.id, tag: trimmed });
      setName('');
    } catch (cause) {
      fail(cause);
    }
  };

  const deleteTag = async (tag: DeviceTag) => {
    setError(null);
    try {
      await remove.mutateAsync(tag.tagId);
      notice.success(t('tags.deleted'));
    } catch (cause) {
      fail(cause);
    }
  };

  return (
    <div className="fw-tag-picker" data-testid="tag-picker">
      <Typography.Text type="secondary" className="fw-tag-picker__hint">
        {t('tags.limitHint')}
      </Typography.Text>
      <div className="fw-tag-picker__section">
        <Typography.Text strong>{t('tags.available')}</Typography.Text>
        {tags.isPending ? (
          <Spin size="small" />
        ) : available.length === 0 ? (
          <Typography.Text type="secondary">{t('tags.none')}</Typography.Text>
        ) : (
          <Flex wrap gap={6} className="fw-tag-picker__list">
            {available.map((tag) => (
              <Space.Compact key={tag.tagId} size="small">
                <Button size="small" disabled={busy} onClick={() => void addTag(tag)}>
                  {tag.tag}
                </Button>
                <Popconfirm
                  title={t('tags.deleteConfirm', { tag: tag.tag })}
                  onConfirm={() => deleteTag(tag)}
                  okButtonProps={{ danger: true }}
                >
                  <Button size="small" icon={<DeleteOutlined />} aria-label={t('tags.delete', { tag: tag.tag })} />
                </Popconfirm>
              </Space.Compact>
            ))}
          </Flex>
        )}
      </div>
      <Space.Compact className="fw-tag-picker__create">
        <Input
          ref={input}
          value={name}
          maxLength={16}
          placeholder={t('tags.newPlaceholder')}
          aria-label={t('tags.newPlaceholder')}
          onChange={(event) => setName(event.target.value)}
          onPressEnter={() => void createAndAdd()}
        />
        <Button type="primary" loading={busy} disabled={!name.trim()} onClick={() => void createAndAdd()}>
          {t('tags.create')}
        </Button>
      </Space.Compact>
      {error && <Alert type="error" showIcon role="alert" title={error} className="fw-tag-picker__error" />}
    </div>
  );
}

/** A device's tags, each removable, and a button to add one (at most 3, as the server enforces). */
export function DeviceTagsCell({ device }: { device: Pick<Device, 'id' | 'name' | 'tags'> }) {
  const { t } = useTranslation('devices');
  const notice = useNotice();
  const remove = useRemoveDeviceTag();
  const [open, setOpen] = useState(false);

  return (
    <Flex wrap gap={4} align="center" className="fw-device-tags">
      {device.tags.map((tag) => (
        <Tag
          key={tag.tagId}
          className="fw-device-tag"
          closable
          closeIcon={<CloseOutlined aria-label={t('tags.remove', { tag: tag.tag })} />}
          onClose={(event) => {
            event.preventDefault();
            remove.mutate({ deviceId: device.id, tagId: tag.tagId }, { onError: (cause) => notice.error(errorMessage(cause)) });
          }}
        >
          {tag.tag}
        </Tag>
      ))}
      <Popover
        trigger="click"
        open={open}
        onOpenChange={setOpen}
        title={t('tags.addTo', { name: device.name })}
        content={<TagPicker device={device} />}
        destroyOnHidden
        placement="bottomLeft"
      >
        <Button
          size="small"
          type="dashed"
          icon={<PlusOutlined />}
          aria-label={t('tags.addTo', { name: device.name })}
          className="fw-device-tags__add"
        >
          {device.tags.length === 0 ? t('tags.add') : null}
        </Button>
      </Popover>
    </Flex>
  );
}
