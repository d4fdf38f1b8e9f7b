import { ShareAltOutlined } from '@ant-design/icons';
import { Button, Card, Col, Flex, Row, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { useProfile } from '@/features/account/api/get-profile';
import { ChangeNameForm } from '@/features/account/components/change-name-form';
import { BindingsPanel } from '@/features/account/components/bindings-panel';
import { ChangePasswordForm } from '@/features/account/components/change-password-form';
import { ProfileDetails } from '@/features/account/components/profile-details';
import { PageLoading } from '@/components/page-loading';
import { usePageTitle } from '../../route-handle';

export default function AccountRoute() {
  const { t } = useTranslation('account');
  const { t: ts } = useTranslation('sharing');
  const title = usePageTitle();
  const { data: profile } = useProfile();
  if (!profile) return <PageLoading />;

  return (
    <div className="fw-page">
      <Typography.Title level={3} className="fw-page__title">
        {title}
      </Typography.Title>
      <Row gutter={[20, 20]}>
        <Col span={24}>
          <Card title={t('profile.title')} variant="borderless">
            <ProfileDetails profile={profile} />
          </Card>
        </Col>
        <Col span={24}>
          <Card title={t('bindings.title')} variant="borderless" data-testid="account-bindings">
            <Typography.Paragraph type="secondary">{t('bindings.intro')}</Typography.Paragraph>
            <BindingsPanel profile={profile} />
          </Card>
        </Col>
        <Col xs={24} xl={12}>
          <Card title={t('changeName.title')} variant="borderless" className="fw-card-fill">
            <ChangeNameForm key={profile.name} currentName={profile.name} />
          </Card>
        </Col>
        <Col xs={24} xl={12}>
          <Card title={t('changePassword.title')} variant="borderless" className="fw-card-fill">
            <ChangePasswordForm />
          </Card>
        </Col>
        <Col span={24}>
          <Card title={ts('entry.title')} variant="borderless" data-testid="account-sharing">
            <Flex align="center" justify="space-between" gap={16} wrap>
              <Typography.Text type="secondary">{ts('entry.description')}</Typography.Text>
              <Link to={paths.sharing}>
                <Button icon={<ShareAltOutlined />}>{ts('entry.open')}</Button>
              </Link>
            </Flex>
          </Card>
        </Col>
      </Row>
    </div>
  );
}
