import { ShareAltOutlined, SwapOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LinkKind, ShareDevice } from '../types';
import { ShareDialog } from './share-dialog';

/** Share and transfer buttons for one device, opening the share dialog in place. */
export function ShareActions({ device }: { device: ShareDevice }) {
  const { t } = useTranslation('sharing');
  const [mode, setMode] = useState<LinkKind | null>(null);
  return (
    <>
      <Button icon={<ShareAltOutlined />} onClick={() => setMode('grant')} data-testid="detail-share">
        {t('actions.share')}
      </Button>
      <Button icon={<SwapOutlined />} onClick={() => setMode('transfer')} data-testid="detail-transfer">
        {t('actions.transfer')}
      </Button>
      {mode && <ShareDialog open devices={[device]} mode={mode} onClose={() => setMode(null)} />}
    </>
  );
}
