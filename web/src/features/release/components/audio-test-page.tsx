import { SoundOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Flex, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

type Outcome = 'unknown' | 'allowed' | 'blocked' | 'unsupported';

type AudioContextClass = typeof AudioContext;

function audioContextClass(): AudioContextClass | undefined {
  const w = window as Window & { webkitAudioContext?: AudioContextClass };
  return window.AudioContext ?? w.webkitAudioContext;
}

/**
 * Plays the alert sound: two short tones, made by the Web Audio API (no file to download). Resolves
 * whether the browser let it play: browsers hold sound back until the page has been interacted with.
 */
export async function playAlertSound(): Promise<Outcome> {
  const Ctx = audioContextClass();
  if (!Ctx) return 'unsupported';
  const ctx = new Ctx();
  try {
    if (ctx.state === 'suspended') await Promise.race([ctx.resume(), new Promise((r) => setTimeout(r, 300))]);
    if (ctx.state !== 'running') return 'blocked';
    const now = ctx.currentTime;
    for (const [start, freq] of [
      [0, 880],
      [0.25, 660],
    ] as const) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.2, now + start);
      gain.gain.exponentialRampToValueAtTime(0.001, now + start + 0.2);
      osc.connect(gain).connect(ctx.destination);
      osc.start(now + start);
      osc.stop(now + start + 0.2);
    }
    await new Promise((r) => setTimeout(r, 500));
    return 'allowed';
  } finally {
    void ctx.close();
  }
}

/**
 * /test/audio: whether this browser plays the console's alert sound — on its own when the page
 * opens (browsers usually refuse), and after a click (they should allow it).
 */
export function AudioTestPage() {
  const { t } = useTranslation('release');
  const [onOpen, setOnOpen] = useState<Outcome>('unknown');
  const [onClick, setOnClick] = useState<Outcome>('unknown');
  useEffect(() => {
    let live = true;
    void playAlertSound().then((o) => live && setOnOpen(o));
    return () => {
      live = false;
    };
  }, []);
  const report = (o: Outcome) => (o === 'unknown' ? t('audio.pending') : t(`audio.outcome.${o}`));
  return (
    <div className="fw-page" data-testid="audio-test">
      <Card variant="borderless" title={t('audio.title')}>
        <Typography.Paragraph type="secondary">{t('audio.intro')}</Typography.Paragraph>
        <Flex vertical gap={12}>
          <Alert type={onOpen === 'allowed' ? 'success' : 'info'} showIcon title={t('audio.onOpen')} description={<span data-testid="audio-on-open" data-outcome={onOpen}>{report(onOpen)}</span>} />
          <div>
            <Button type="primary" icon={<SoundOutlined />} onClick={() => void playAlertSound().then(setOnClick)} data-testid="audio-play">
              {t('audio.play')}
            </Button>
          </div>
          {onClick !== 'unknown' && (
            <Alert type={onClick === 'allowed' ? 'success' : 'warning'} showIcon title={t('audio.onClick')} description={<span data-testid="audio-on-click" data-outcome={onClick}>{report(onClick)}</span>} />
          )}
        </Flex>
      </Card>
    </div>
  );
}
