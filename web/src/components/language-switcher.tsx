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
      <Button type="text" icon={<GlobalOutlined />} aria-label={t('language')}>
        {showLabel ? t(`languages.${current}`) : null}
      </Button>
    </Dropdown>
  );
}
