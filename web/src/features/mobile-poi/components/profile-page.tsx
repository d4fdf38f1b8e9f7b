import { Button, DatePicker, Form, Input, NoticeBar } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { MobileServerError } from '@/components/mobile-server-error';
import { useProfile } from '@/features/poi/api/get-profile';
import { useUpdateProfile } from '@/features/poi/api/update-profile';
import type { DeviceInfo, DeviceProfile } from '@/features/poi/types';
import { errorMessage, isApiError } from '@/lib/api-client';
import { farmDate, farmTime, pickerToday } from '@/lib/farm-time';
import { MISSING } from '@/lib/format';
import { useNotice } from '@/lib/notice';
import dayjs from 'dayjs';
import { mobileDeviceBase } from '../lib/kind';
import { DeviceError, Loading } from './states';
import { useMobileDevice } from './use-device';

/** The server's limits (PUT /apis/poi/{id}/profile, SPEC §5): a name of 1–16 characters, a place of up to 64. */
export const NAME_MAX = 16;
export const LOCATION_MAX = 64;

/** Characters as people count them: a Chinese character or an emoji is one. */
export const characters = (value: string) => Array.from(value).length;

interface Values {
  name: string;
  location: string;
}

/** The fields the form shows; a server error naming another field shows under the form. */
const FIELDS = new Set(['name', 'location', 'installTime']);

export function ProfileForm({ deviceId, profile, onSaved }: { deviceId: number; profile: DeviceProfile; onSaved: () => void }) {
  const { t } = useTranslation(['mobilePoi', 'poi']);
  const notice = useNotice();
  const [form] = Form.useForm<Values>();
  const watchedName = Form.useWatch('name', form) as string | undefined;
  const [installTime, setInstallTime] = useState<number | null>(profile.installTime);
  const [picking, setPicking] = useState(false);
  const update = useUpdateProfile(deviceId, {
    onSuccess: () => {
      notice.success(t('poi:edit.saved'));
      onSaved();
    },
  });
  const error = update.error;
  const fieldError = isApiError(error) && error.field && FIELDS.has(error.field) ? error.field : null;

  const installError = fieldError === 'installTime' ? errorMessage(error) : '';

  // The server's localized reason shows under the field it names.
  const save = (values: Values) =>
    update.mutate(
      { ...profile, name: values.name.trim(), location: (values.location ?? '').trim(), installTime },
      {
        onError: (caught) => {
          if (isApiError(caught) && (caught.field === 'name' || caught.field === 'location')) {
            form.setFields([{ name: caught.field, errors: [caught.message] }]);
          }
        },
      },
    );

  return (
    <>
      <Form
        form={form}
        name="mobile-poi-profile"
        mode="card"
        requiredMarkStyle="none"
        initialValues={{ name: profile.name, location: profile.location }}
        onFinish={save}
        onValuesChange={() => update.isError && update.reset()}
        footer={
          <>
            {!fieldError && <MobileServerError error={error} />}
            <Button block type="submit" color="primary" loading={update.isPending} data-testid="mpoi-profile-save">
              {t('poi:edit.save')}
            </Button>
          </>
        }
      >
        <Form.Item
          name="name"
          label={t('poi:edit.name')}
          rules={[
            { required: true, whitespace: true, message: t('poi:edit.nameRequired') },
            {
              validator: (_rule: unknown, value: unknown) =>
                typeof value === 'string' && characters(value.trim()) > NAME_MAX
                  ? Promise.reject(new Error(t('poi:edit.nameTooLong', { max: NAME_MAX })))
                  : Promise.resolve(),
            },
          ]}
          extra={<Counter name={watchedName} />}
        >
          <Input placeholder={t('poi:edit.namePlaceholder')} clearable data-testid="mpoi-profile-name" />
        </Form.Item>
        <Form.Item
          name="location"
          label={t('poi:edit.location')}
          rules={[{ max: LOCATION_MAX, message: t('poi:edit.locationTooLong', { max: LOCATION_MAX }) }]}
        >
          <Input placeholder={t('poi:edit.locationPlaceholder')} clearable maxLength={LOCATION_MAX} data-testid="mpoi-profile-location" />
        </Form.Item>
        <Form.Item
          label={t('poi:edit.installTime')}
          onClick={() => setPicking(true)}
          arrowIcon
          help={installError || undefined}
          data-testid="mpoi-profile-install"
        >
          {installTime ? farmTime(installTime).format('YYYY-MM-DD') : MISSING}
        </Form.Item>
      </Form>
      <DatePicker
        visible={picking}
        title={t('poi:edit.installTime')}
        max={pickerToday().toDate()}
        min={pickerToday().subtract(20, 'year').toDate()}
        defaultValue={installTime ? dayjs(farmTime(installTime).format('YYYY-MM-DD')).toDate() : pickerToday().toDate()}
        confirmText={t('history.confirm')}
        cancelText={t('about.cancel')}
        onClose={() => setPicking(false)}
        onConfirm={(value) => {
          update.reset();
          setInstallTime(farmDate(dayjs(value).format('YYYY-MM-DD')).valueOf());
        }}
      />
    </>
  );
}

/** "5/16": the name's length as saved (trimmed), against the limit. */
function Counter({ name }: { name: string | undefined }) {
  const count = characters((name ?? '').trim());
  return <span className={count > NAME_MAX ? 'fw-mpoi-count fw-mpoi-count--over' : 'fw-mpoi-count'}>{`${count}/${NAME_MAX}`}</span>;
}

function Profile({ device }: { device: DeviceInfo }) {
  const { t } = useTranslation('mobilePoi');
  const navigate = useNavigate();
  const { state } = useLocation();
  const canRename = Boolean(device.right?.rename);
  const profile = useProfile(device.id);
  if (!canRename) {
    return (
      <div className="fw-mpoi" data-testid="mpoi-profile">
        <NoticeBar content={t('about.noRenameRight')} color="info" wrap data-testid="mpoi-profile-readonly" />
      </div>
    );
  }
  if (profile.error) return <DeviceError error={profile.error} />;
  if (!profile.data) return <Loading />;
  return (
    <div className="fw-mpoi" data-testid="mpoi-profile">
      <ProfileForm deviceId={device.id} profile={profile.data} onSaved={() => void navigate(`${mobileDeviceBase(device.hashId, device.id)}/about`, { state })} />
    </div>
  );
}

/** …/about/profile: rename, place and install date, for the device's owners and managers. */
export function MobileDeviceProfilePage() {
  const { info } = useMobileDevice();
  if (info.isPending) return <Loading />;
  if (info.isError) return <DeviceError error={info.error} />;
  return <Profile device={info.data} />;
}
