import { useTranslation } from 'react-i18next';
import { PRIMARY_COLOR } from '@/lib/theme';

type LogoTone = 'brand' | 'inverse';

interface LogoProps {
  size?: number;
  /** 'inverse' draws a white mark for coloured backgrounds. */
  tone?: LogoTone;
  /** Show the product name beside the mark. */
  withName?: boolean;
  className?: string;
}

export function LogoMark({ size = 28, tone = 'brand' }: { size?: number; tone?: LogoTone }) {
  const tile = tone === 'brand' ? PRIMARY_COLOR : '#fff';
  const leaf = tone === 'brand' ? '#fff' : PRIMARY_COLOR;
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="8" fill={tile} />
      <path d="M8.5 23.5C8.5 14.6 13.9 9.2 24 8c-.9 10.2-6.4 15.5-15.5 15.5Z" fill={leaf} />
      <path d="M8.5 23.5 18 14" stroke={tile} strokeWidth="1.8" strokeLinecap="round" />
      <circle cx="23.5" cy="23.5" r="2.2" fill="#9DF0C4" />
    </svg>
  );
}

export function Logo({ size = 28, tone = 'brand', withName = true, className }: LogoProps) {
  const { t } = useTranslation();
  return (
    <span className={['fw-logo', className].filter(Boolean).join(' ')}>
      <LogoMark size={size} tone={tone} />
      {withName && <span className="fw-logo__name">{t('appName')}</span>}
    </span>
  );
}
