import { useTranslation } from 'react-i18next';
import { useThemeMode } from '@/lib/theme';
import { MoonIcon, SunIcon } from './plain-icons';

/** Switches light and dark; a plain button, so the login page draws it without antd. */
export function ThemeToggle() {
  const { t } = useTranslation();
  const { mode, toggle } = useThemeMode();
  const label = mode === 'dark' ? t('theme.switchToLight') : t('theme.switchToDark');
  return (
    <button type="button" className="fw-icon-button" aria-label={label} title={label} data-testid="theme-toggle" onClick={toggle}>
      {mode === 'dark' ? <SunIcon /> : <MoonIcon />}
    </button>
  );
}
