import { GlobalOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '@/lib/i18n';

const loadMenu = () => import('./language-menu');
// antd's Dropdown and Menu (≈ 25 kB compressed) load when the menu is first wanted, not with the
// login page: pointing at or focusing the button starts loading, a click opens it.
const LanguageMenu = lazy(loadMenu);

export function LanguageSwitcher({ showLabel = true }: { showLabel?: boolean }) {
  const { t } = useTranslation();
  const [wanted, setWanted] = useState(false);
  const button = (
    <Button
      type="text"
      icon={<GlobalOutlined />}
      // With its label shown, the button is named by what it shows (the current language); the word
      // "language" then only describes it.
      aria-label={showLabel ? undefined : t('language')}
      title={showLabel ? t('language') : undefined}
      aria-haspopup="menu"
      onPointerEnter={() => void loadMenu()}
      onFocus={() => void loadMenu()}
      onClick={wanted ? undefined : () => setWanted(true)}
    >
      {showLabel ? t(`languages.${currentLanguage()}`) : null}
    </Button>
  );
  if (!wanted) return button;
  return (
    <Suspense fallback={button}>
      <LanguageMenu>{button}</LanguageMenu>
    </Suspense>
  );
}
