import { Flex, Select, Typography } from 'antd';
import { useDeferredValue, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLang } from '@/lib/use-lang';
import { ADVICE_GROUPS, useAdviceDevices } from '../api/get-devices';
import type { FieldChoice } from '../api/keys';
import { sortForPicker } from '../lib/field';
import type { AdviceDevice } from '../types';

interface FieldPickerProps {
  field: FieldChoice | null;
  /** Devices already known by id (the chosen ones among them), so their names show whatever is searched. */
  known: Map<number, AdviceDevice>;
  onChange: (field: FieldChoice) => void;
}

function useOptions(search: string, known: Map<number, AdviceDevice>, exclude: number[]) {
  const { t } = useTranslation('advice');
  const lang = useLang();
  const deferred = useDeferredValue(search);
  const list = useAdviceDevices(deferred, lang);
  const options = useMemo(() => {
    const found = sortForPicker(list.data ?? []).filter((d) => !exclude.includes(d.id));
    return ADVICE_GROUPS.map((group) => ({
      label: t(`picker.group.${group}`),
      title: t(`picker.group.${group}`),
      options: found
        .filter((d) => d.category === group)
        .map((d) => ({ value: d.id, label: d.name, title: `${d.name} · ${d.typeName} · ${d.sn}`, device: d })),
    })).filter((g) => g.options.length > 0);
  }, [list.data, exclude, t]);
  // A chosen device the current search does not list still shows by name.
  const names = useMemo(() => {
    const all = new Map(known);
    for (const d of list.data ?? []) all.set(d.id, d);
    return all;
  }, [known, list.data]);
  return { options, names, loading: list.isFetching };
}

function DeviceOption({ device }: { device: AdviceDevice }) {
  return (
    <Flex justify="space-between" gap={8}>
      <span>{device.name}</span>
      <Typography.Text type="secondary" ellipsis>
        {device.typeName}
      </Typography.Text>
    </Flex>
  );
}

/** The device advised on, and the other devices of its field (a station, gauge or trap nearby). */
export function FieldPicker({ field, known, onChange }: FieldPickerProps) {
  const { t } = useTranslation('advice');
  const [leadSearch, setLeadSearch] = useState('');
  const [otherSearch, setOtherSearch] = useState('');
  const lead = useOptions(leadSearch, known, []);
  const others = useOptions(otherSearch, known, field ? [field.lead] : []);
  const label = (names: Map<number, AdviceDevice>, id: number) => names.get(id)?.name ?? `#${id}`;

  return (
    <Flex wrap gap={12} align="center" className="fw-advice-picker" data-testid="advice-picker">
      <div className="fw-advice-picker__item">
        <Typography.Text>{t('picker.device')}</Typography.Text>
        <Select<number>
          showSearch={{ filterOption: false, onSearch: setLeadSearch }}
          value={field?.lead}
          labelRender={({ value }) => label(lead.names, Number(value))}
          placeholder={t('picker.devicePlaceholder')}
          options={lead.options}
          optionRender={(option) => <DeviceOption device={(option.data as { device: AdviceDevice }).device} />}
          loading={lead.loading}
          notFoundContent={t('picker.none')}
          onChange={(id) => {
            setLeadSearch('');
            onChange({ lead: id, others: (field?.others ?? []).filter((o) => o !== id) });
          }}
          className="fw-advice-picker__lead"
          aria-label={t('picker.device')}
          data-testid="advice-device"
        />
      </div>
      <div className="fw-advice-picker__item">
        <Typography.Text>{t('picker.field')}</Typography.Text>
        <Select<number[]>
          mode="multiple"
          showSearch={{ filterOption: false, onSearch: setOtherSearch }}
          value={field?.others ?? []}
          labelRender={({ value }) => label(others.names, Number(value))}
          placeholder={t('picker.fieldPlaceholder')}
          options={others.options}
          optionRender={(option) => <DeviceOption device={(option.data as { device: AdviceDevice }).device} />}
          loading={others.loading}
          notFoundContent={t('picker.none')}
          disabled={!field}
          maxTagCount="responsive"
          onChange={(ids) => {
            setOtherSearch('');
            if (field) onChange({ lead: field.lead, others: ids });
          }}
          className="fw-advice-picker__others"
          aria-label={t('picker.field')}
          data-testid="advice-field"
        />
      </div>
      <Typography.Text type="secondary" className="fw-advice-picker__hint">
        {t('picker.fieldHint')}
      </Typography.Text>
    </Flex>
  );
}
