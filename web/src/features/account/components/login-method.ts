import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

const METHOD_KEYS = {
  password: 'loginMethod.password',
  wechat: 'loginMethod.wechat',
  phone: 'loginMethod.phone',
  mail: 'loginMethod.mail',
} as const;

/** Names a login method; one this version does not know is shown as the server sent it. */
export function useLoginMethodLabel() {
  const { t } = useTranslation('account');
  return useCallback(
    (method: string) => (method in METHOD_KEYS ? t(METHOD_KEYS[method as keyof typeof METHOD_KEYS]) : method),
    [t],
  );
}
