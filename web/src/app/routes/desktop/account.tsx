import { Card, Col, Row, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useProfile } from '@/features/account/api/get-profile';
import { ChangeNameForm } from '@/features/account/components/change-name-form';
import { ChangePasswordForm } from '@/features/account/components/change-password-form';
import { ProfileDetails } from '@/features/account/components/profile-details';
import { PageLoading } from '@/components/page-loading';
import { usePageTitle } from '../../route-handle';

export default function AccountRoute() {
  const { t } = useTranslation('account');
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
      </Row>
    </div>
  );
}
