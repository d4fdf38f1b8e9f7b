import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { LanguageSwitcher } from '@/components/language-switcher';
import { Logo } from '@/components/logo';
import { BellIcon, ChartIcon, PinIcon } from '@/components/plain-icons';
import { ThemeToggle } from '@/components/theme-toggle';
import { paths } from '@/config/paths';
import { useLoginMethods } from '@/features/account/api/bindings';
import { LoginForm } from '@/features/account/components/login-form';
import { useMobileMode } from '@/lib/mobile-mode';
import { safeRedirect } from '@/lib/redirect';

// The dialogs load only when opened: the login page itself stays light on a phone network.
const ForgotPasswordDialog = lazy(() =>
  import('@/features/account/components/login-extras').then((m) => ({ default: m.ForgotPasswordDialog })),
);
const WeChatLoginDialog = lazy(() =>
  import('@/features/account/components/login-extras').then((m) => ({ default: m.WeChatLoginDialog })),
);

const heroPoints = [
  { key: 'heroPoint1', icon: <PinIcon /> },
  { key: 'heroPoint2', icon: <BellIcon /> },
  { key: 'heroPoint3', icon: <ChartIcon /> },
] as const;

export default function LoginRoute() {
  const { t } = useTranslation('account');
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const mobile = useMobileMode();
  const home = mobile ? paths.mobile.devices : paths.devices;
  const methods = useLoginMethods();
  const [dialog, setDialog] = useState<'forgot' | 'wechat' | null>(null);
  const [resetDone, setResetDone] = useState(false);
  const enter = () => void navigate(safeRedirect(searchParams.get('redirect'), home), { replace: true });

  return (
    <div className="fw-login">
      <aside className="fw-login__hero">
        <Logo size={36} tone="inverse" className="fw-login__hero-logo" />
        <div className="fw-login__hero-copy">
          <h1>{t('login.heroTitle')}</h1>
          <p>{t('login.heroText')}</p>
          <ul>
            {heroPoints.map((point) => (
              <li key={point.key}>
                <span className="fw-login__hero-icon">{point.icon}</span>
                {t(`login.${point.key}`)}
              </li>
            ))}
          </ul>
        </div>
        <svg className="fw-login__fields" viewBox="0 0 600 220" preserveAspectRatio="none" aria-hidden="true">
          <path d="M0 150 C120 110 220 170 340 130 S520 90 600 120 L600 220 L0 220 Z" fill="rgba(255,255,255,0.10)" />
          <path d="M0 180 C140 150 260 200 380 165 S540 140 600 160 L600 220 L0 220 Z" fill="rgba(255,255,255,0.14)" />
          <path d="M0 205 C160 190 300 215 440 198 S560 190 600 196 L600 220 L0 220 Z" fill="rgba(255,255,255,0.18)" />
        </svg>
      </aside>
      <main className="fw-login__main">
        <div className="fw-login__toolbar">
          <LanguageSwitcher />
          <ThemeToggle />
        </div>
        <div className="fw-login__panel">
          <Logo size={40} className="fw-login__panel-logo" />
          <h2 className="fw-login__title">{t('login.title')}</h2>
          <p className="fw-login__subtitle">{t('login.subtitle')}</p>
          {resetDone ? (
            <p className="fw-login__notice" role="status">
              {t('forgot.done')}
            </p>
          ) : null}
          <LoginForm onSuccess={enter} />
          <div className="fw-login__extras">
            <button type="button" className="fw-link-button" onClick={() => setDialog('forgot')}>
              {t('forgot.link')}
            </button>
            {methods.data?.wechat ? (
              <button type="button" className="fw-link-button" onClick={() => setDialog('wechat')}>
                {t('wechat.loginLink')}
              </button>
            ) : null}
          </div>
          <Suspense fallback={null}>
            {dialog === 'forgot' && methods.data ? (
              <ForgotPasswordDialog
                methods={methods.data}
                onClose={(resetFor) => {
                  setDialog(null);
                  if (resetFor) setResetDone(true);
                }}
              />
            ) : null}
            {dialog === 'wechat' ? <WeChatLoginDialog onClose={() => setDialog(null)} onSuccess={enter} /> : null}
          </Suspense>
        </div>
      </main>
    </div>
  );
}
