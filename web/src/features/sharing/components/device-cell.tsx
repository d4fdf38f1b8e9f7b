import { Typography } from 'antd';
import { Link } from 'react-router';
import { deviceDetailPath } from '@/lib/detail-path';
import type { DeviceRef } from '../types';

/** A device's name, linking to its detail page when it has one, over its SN. */
export function DeviceCell({ device }: { device: DeviceRef }) {
  const path = deviceDetailPath({ page: device.page, hashId: device.hashId, id: device.poiId });
  return (
    <div className="fw-share-device">
      {path ? <Link to={path}>{device.name}</Link> : <span>{device.name}</span>}
      <Typography.Text type="secondary" className="fw-share-device__sn">
        {device.sn}
      </Typography.Text>
    </div>
  );
}
