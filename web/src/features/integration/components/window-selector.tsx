import { Segmented } from 'antd';
import { useTranslation } from 'react-i18next';
import { PUSH_WINDOWS, type PushWindow } from '../types';

/** The time window of figures and the log (SPEC §9): 15 minutes to a week. */
export function WindowSelector({ value, onChange }: { value: PushWindow; onChange: (next: PushWindow) => void }) {
  const { t } = useTranslation('integration');
  return (
    <Segmented<PushWindow>
      value={value}
      onChange={onChange}
      options={PUSH_WINDOWS.map((w) => ({ value: w, label: t(`windows.${w}`) }))}
      aria-label={t('windows.label')}
      data-testid="window-selector"
    />
  );
}
