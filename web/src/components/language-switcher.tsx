import { CheckOutlined, GlobalOutlined } from '@ant-design/icons';
import { Button, Dropdown } from 'antd';
import { useTranslation } from 'react-i18next';
import { changeLanguage, currentLanguage, LANGUAGES } from '@/lib/i18n';

export function LanguageSwitcher({ showLabel = true }: { showLabel?: boolean }) {
  const { t } = useTranslation();
  const current = currentLanguage();
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [current],
        items: LANGUAGES.map((language) => ({
          key: language,
          label: t(`languages.${language}`),
          extra: language === current ? <CheckOutlined /> : undefined,
        })),
        onClick: ({ key }) => void changeLanguage(key as (typeof LANGUAGES)[number]),
      }}
    >
      {/* With its label shown, the button is named by what it shows (the current language); the
          word "language" then only describes it. */}
      <Button type="text" icon={<GlobalOutlined />} aria-label={showLabel ? undefined : t('language')} title={showLabel ? t('language') : undefined}>
        {showLabel ? t(`languages.${current}`) : null}
      </Button>
    </Dropdown>
  );
}
