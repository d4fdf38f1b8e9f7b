import { DownOutlined, LogoutOutlined, UserOutlined } from '@ant-design/icons';
import { Avatar, Button, Dropdown } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { paths } from '@/config/paths';
import { useProfile } from '@/features/account/api/get-profile';
import { useLogout } from '@/features/account/api/logout';
import { errorMessage } from '@/lib/api-client';
import { initialOf } from '@/lib/format';
import { useNotice } from '@/lib/notice';

export function AccountMenu({ showName = true }: { showName?: boolean }) {
  const { t } = useTranslation('account');
  const navigate = useNavigate();
  const notice = useNotice();
  const { data: profile } = useProfile();
  const logout = useLogout({ onSuccess: () => void navigate(paths.login, { replace: true }) });
  const name = profile?.name || profile?.accountNumber || '';

  return (
    <Dropdown
      trigger={['click']}
      placement="bottomRight"
      menu={{
        items: [
          {
            key: 'who',
            disabled: true,
            className: 'fw-account-menu__who',
            label: (
              <div>
                <div className="fw-account-menu__name">{name}</div>
                <div className="fw-account-menu__number">{profile?.accountNumber}</div>
              </div>
            ),
          },
          { type: 'divider' },
          { key: 'account', icon: <UserOutlined />, label: t('menu.account') },
          { key: 'logout', icon: <LogoutOutlined />, danger: true, label: t('menu.logout') },
        ],
        onClick: ({ key }) => {
          if (key === 'account') void navigate(paths.account);
          if (key === 'logout') logout.mutate(undefined, { onError: (error) => notice.error(errorMessage(error)) });
        },
      }}
    >
      <Button type="text" className="fw-account-button" data-testid="account-menu">
        <Avatar size={28} className="fw-avatar">
          {initialOf(name)}
        </Avatar>
        {showName && <span className="fw-account-button__name">{name}</span>}
        <DownOutlined className="fw-account-button__caret" />
      </Button>
    </Dropdown>
  );
}
