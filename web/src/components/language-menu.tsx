import { CheckOutlined } from '@ant-design/icons';
import { Dropdown } from 'antd';
import { useState, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { changeLanguage, currentLanguage, LANGUAGES } from '@/lib/i18n';

/** The language menu around its button; loaded by LanguageSwitcher when it is first wanted, open. */
export default function LanguageMenu({ children }: { children: ReactElement }) {
  const { t } = useTranslation();
  const current = currentLanguage();
  const [open, setOpen] = useState(true);
  return (
    <Dropdown
      trigger={['click']}
      open={open}
      onOpenChange={setOpen}
      menu={{
        selectable: true,
        selectedKeys: [current],
        items: LANGUAGES.map((language) => ({
          key: language,
          label: t(`languages.${language}`),
          extra: language === current ? <CheckOutlined /> : undefined,
        })),
        onClick: ({ key }) => {
          setOpen(false);
          void changeLanguage(key as (typeof LANGUAGES)[number]);
        },
      }}
    >
      {children}
    </Dropdown>
  );
}
