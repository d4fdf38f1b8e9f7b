import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { App, Button, Card, Empty, Flex, Form, Input, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { PageLoading } from '@/components/page-loading';
import { ServerErrorAlert } from '@/components/server-error-alert';
import { formatDateTime } from '@/lib/format';
import { useMapConfig } from '@/lib/map-config';
import { useCreateET0Area, useDeleteET0Area, useET0Areas, useStationsBox, type ET0Area } from '../api/et0';
import { ET0Map, type Box } from './et0-map';
import './et0.css';

const deg = (v: number) => v.toFixed(3);
export const et0DetailPath = (id: number) => `/console/et0/detail/${id}`;

/**
 * The ET0 raster data service (/console/service/et0): the areas a user keeps, each a box drawn on
 * the map, whose daily ET0 grid the detail page shows and hands out as GeoTIFF and CSV.
 */
export function ET0AreasPage() {
  const { t } = useTranslation('et0');
  const { t: tc } = useTranslation();
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const areas = useET0Areas();
  const config = useMapConfig();
  const stations = useStationsBox();
  const remove = useDeleteET0Area();
  const [drawing, setDrawing] = useState(false);
  const [box, setBox] = useState<Box | null>(null);
  const [form] = Form.useForm<{ name: string }>();
  const create = useCreateET0Area({ onSuccess: (a) => void navigate(et0DetailPath(a.id)) });

  const confirmRemove = (a: ET0Area) =>
    modal.confirm({
      title: t('removeTitle', { name: a.name }),
      okText: t('remove'),
      okButtonProps: { danger: true },
      cancelText: tc('actions.cancel'),
      onOk: () => remove.mutateAsync(a.id).catch(() => undefined),
    });

  return (
    <div className="fw-page fw-et0" data-testid="et0-areas">
      <Card
        variant="borderless"
        title={t('title')}
        extra={
          !drawing && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setDrawing(true)} data-testid="et0-new">
              {t('new')}
            </Button>
          )
        }
      >
        <Typography.Paragraph type="secondary">{t('intro')}</Typography.Paragraph>
        {drawing && (
          <div className="fw-et0-draw" data-testid="et0-draw">
            <Typography.Paragraph strong>{box ? t('drawn', { west: deg(box.west), south: deg(box.south), east: deg(box.east), north: deg(box.north) }) : t('drawHint')}</Typography.Paragraph>
            {config.data && !stations.isPending ? <ET0Map config={config.data} view={stations.data ?? undefined} area={box ?? undefined} onDraw={setBox} height={420} /> : <PageLoading />}
            <Form form={form} layout="inline" className="fw-et0-draw__form" onFinish={(v) => box && create.mutate({ name: v.name, ...box })}>
              <Form.Item name="name" label={t('name')} rules={[{ required: true, whitespace: true, message: t('nameRequired') }, { max: 32, message: t('nameTooLong') }]}>
                <Input placeholder={t('namePlaceholder')} maxLength={32} data-testid="et0-name" />
              </Form.Item>
              <Button type="primary" htmlType="submit" disabled={!box} loading={create.isPending} data-testid="et0-save">
                {t('save')}
              </Button>
              <Button
                onClick={() => {
                  setDrawing(false);
                  setBox(null);
                }}
              >
                {tc('actions.cancel')}
              </Button>
            </Form>
            <ServerErrorAlert error={create.error} />
          </div>
        )}
        <ServerErrorAlert error={areas.error ?? remove.error} />
        <Table<ET0Area>
          rowKey="id"
          size="middle"
          loading={areas.isPending}
          dataSource={areas.data ?? []}
          pagination={false}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={<span className="fw-table-empty">{t('none')}</span>} /> }}
          columns={[
            { title: t('name'), dataIndex: 'name', render: (name: string, a) => <Link to={et0DetailPath(a.id)}>{name}</Link> },
            { title: t('box'), key: 'box', render: (_, a) => `${deg(a.west)}, ${deg(a.south)} – ${deg(a.east)}, ${deg(a.north)}` },
            { title: t('cell'), dataIndex: 'cell', render: (c: number) => t('cellKm', { km: Math.round(c * 111 * 10) / 10 }) },
            { title: t('created'), dataIndex: 'createdAt', render: (v: number) => formatDateTime(v) },
            {
              title: t('actions'),
              key: 'actions',
              width: 120,
              render: (_, a) => (
                <Flex gap={4}>
                  <Button type="text" danger icon={<DeleteOutlined />} aria-label={t('removeTitle', { name: a.name })} onClick={() => confirmRemove(a)} />
                </Flex>
              ),
            },
          ]}
        />
      </Card>
    </div>
  );
}
