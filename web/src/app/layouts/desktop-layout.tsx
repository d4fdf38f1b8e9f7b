import { MenuFoldOutlined, MenuOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import { Button, Drawer, Grid, Layout, Menu } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, Outlet, useLocation } from 'react-router';
import { LanguageSwitcher } from '@/components/language-switcher';
import { Logo } from '@/components/logo';
import { ThemeToggle } from '@/components/theme-toggle';
import { paths } from '@/config/paths';
import { useMobileMode } from '@/lib/mobile-mode';
import { mobileEquivalent } from '../mobile-redirect';
import { AccountMenu } from './account-menu';
import { activeEntry, integrationMenu, mainMenu } from './desktop-menus';

const SIDER_KEY = 'fw-sider-collapsed';

function MainMenu({ mode, onNavigate }: { mode: 'horizontal' | 'inline'; onNavigate?: () => void }) {
  const { t } = useTranslation('nav');
  const { pathname } = useLocation();
  const selected = activeEntry(mainMenu, pathname);
  return (
    <nav className={`fw-main-nav fw-main-nav--${mode}`} aria-label={t('mainMenu')}>
      <Menu
        className="fw-main-menu"
        mode={mode}
        selectedKeys={selected ? [selected] : []}
        onClick={onNavigate}
        items={mainMenu.map((entry) => ({
          key: entry.key,
          icon: entry.icon,
          label: <Link to={entry.to}>{t(`main.${entry.key}`)}</Link>,
        }))}
      />
    </nav>
  );
}

function IntegrationMenu({ onNavigate }: { onNavigate?: () => void }) {
  const { t } = useTranslation('nav');
  const { pathname } = useLocation();
  const selected = activeEntry(integrationMenu, pathname);
  return (
    <nav className="fw-integration-nav" aria-label={t('integration.title')}>
      <Menu
        className="fw-integration-menu"
        mode="inline"
        inlineIndent={20}
        selectedKeys={selected ? [selected] : []}
        onClick={onNavigate}
        items={integrationMenu.map((entry) => ({
          key: entry.key,
          icon: entry.icon,
          label: <Link to={entry.to}>{t(`integration.${entry.key}`)}</Link>,
        }))}
      />
    </nav>
  );
}

/**
 * The console: top bar with the main menu, integration menu at the side. On a narrow window both
 * menus move into a drawer opened from the top bar.
 */
export function DesktopLayout() {
  const { t } = useTranslation('nav');
  const { pathname, search } = useLocation();
  const mobile = useMobileMode();
  const screens = Grid.useBreakpoint();
  const [collapsed, setCollapsed] = useState(() => window.localStorage.getItem(SIDER_KEY) === '1');
  const [drawerOpen, setDrawerOpen] = useState(false);

  const mobileTarget = mobile ? mobileEquivalent(pathname) : null;
  if (mobileTarget) return <Navigate to={`${mobileTarget}${search}`} replace />;

  // Before the first measurement every breakpoint is undefined: render the wide layout.
  const compact = screens.lg === false;
  const roomy = screens.sm !== false;

  const toggleSider = () => {
    const next = !collapsed;
    setCollapsed(next);
    window.localStorage.setItem(SIDER_KEY, next ? '1' : '0');
  };
  const closeDrawer = () => setDrawerOpen(false);

  return (
    <Layout className={compact ? 'fw-desktop fw-desktop--compact' : 'fw-desktop'}>
      <Layout.Header className="fw-header">
        {compact && (
          <Button type="text" icon={<MenuOutlined />} aria-label={t('expand')} onClick={() => setDrawerOpen(true)} />
        )}
        <Link to={paths.devices} className="fw-header__brand">
          <Logo size={30} withName={roomy} />
        </Link>
        {compact ? <div className="fw-header__spacer" /> : <MainMenu mode="horizontal" />}
        <div className="fw-header__actions">
          <LanguageSwitcher showLabel={roomy} />
          <ThemeToggle />
          <AccountMenu showName={roomy} />
        </div>
      </Layout.Header>
      <Layout className="fw-body">
        {!compact && (
          <Layout.Sider
            className="fw-sider"
            theme="light"
            width={256}
            collapsedWidth={64}
            collapsed={collapsed}
            trigger={null}
          >
            <div className="fw-sider__title">{collapsed ? null : t('integration.title')}</div>
            <IntegrationMenu />
            <div className="fw-sider__footer">
              <Button
                type="text"
                block
                onClick={toggleSider}
                icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
                aria-label={collapsed ? t('expand') : t('collapse')}
              >
                {collapsed ? null : t('collapse')}
              </Button>
            </div>
          </Layout.Sider>
        )}
        <Layout.Content className="fw-content">
          <Outlet />
        </Layout.Content>
      </Layout>
      {compact && (
        <Drawer
          className="fw-nav-drawer"
          placement="left"
          size={288}
          open={drawerOpen}
          onClose={closeDrawer}
          title={<Logo size={26} />}
          closable={false}
        >
          <MainMenu mode="inline" onNavigate={closeDrawer} />
          <div className="fw-sider__title">{t('integration.title')}</div>
          <IntegrationMenu onNavigate={closeDrawer} />
        </Drawer>
      )}
    </Layout>
  );
}
