import { DatePicker, Flex, Select, Button } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { FarmZoneNote } from '@/components/farm-zone-note';
import { useFilterOptions } from '../api/get-filter-options';
import { KINDS, LEVELS, type EventFilters as Filters } from '../types';
import './events.css';
import { fromPicker, toPicker } from '@/lib/farm-time';

export interface EventFiltersProps {
  value: Filters;
  onChange: (next: Filters) => void;
}

function hasAny(filters: Filters): boolean {
  return Object.values(filters).some((value) => value !== undefined);
}

/** Narrows the events list by device, rule, level, kind and time range. */
export function EventFilters({ value, onChange }: EventFiltersProps) {
  const { t } = useTranslation('rules');
  const options = useFilterOptions();
  const range: [Dayjs | null, Dayjs | null] = [
    value.begin === undefined ? null : toPicker(value.begin),
    value.end === undefined ? null : toPicker(value.end),
  ];

  return (
    <Flex wrap gap={12} className="fw-event-filters">
      <Select<number>
        className="fw-event-filters__device"
        placeholder={t('events.filters.device')}
        aria-label={t('events.filters.device')}
        value={value.deviceId}
        allowClear
        showSearch={{ optionFilterProp: 'label' }}
        loading={options.loading}
        options={options.devices.map((device) => ({ value: device.id, label: `${device.name} · ${device.sn}` }))}
        onChange={(deviceId) => onChange({ ...value, deviceId })}
        popupMatchSelectWidth={false}
      />
      <Select<number>
        className="fw-event-filters__rule"
        placeholder={t('events.filters.rule')}
        aria-label={t('events.filters.rule')}
        value={value.ruleId}
        allowClear
        showSearch={{ optionFilterProp: 'label' }}
        loading={options.loading}
        options={options.rules.map((rule) => ({ value: rule.id, label: rule.name }))}
        onChange={(ruleId) => onChange({ ...value, ruleId })}
        popupMatchSelectWidth={false}
      />
      <Select
        className="fw-event-filters__level"
        placeholder={t('events.filters.level')}
        aria-label={t('events.filters.level')}
        value={value.level}
        allowClear
        options={LEVELS.map((level) => ({ value: level, label: t(`levels.${level}`) }))}
        onChange={(level) => onChange({ ...value, level })}
      />
      <Select
        className="fw-event-filters__kind"
        placeholder={t('events.filters.kind')}
        aria-label={t('events.filters.kind')}
        value={value.kind}
        allowClear
        options={KINDS.map((kind) => ({ value: kind, label: t(`events.kinds.${kind}`) }))}
        onChange={(kind) => onChange({ ...value, kind })}
      />
      <DatePicker.RangePicker
        className="fw-event-filters__range"
        showTime={{ format: 'HH:mm' }}
        format="YYYY-MM-DD HH:mm"
        value={range}
        allowEmpty={[true, true]}
        placeholder={[t('events.filters.begin'), t('events.filters.end')]}
        onChange={(dates) =>
          onChange({ ...value, begin: dates?.[0] ? fromPicker(dates[0]).valueOf() : undefined, end: dates?.[1] ? fromPicker(dates[1]).valueOf() : undefined })
        }
      />
      <FarmZoneNote className="fw-event-filters__zone" />
      {hasAny(value) && (
        <Button type="link" onClick={() => onChange({})}>
          {t('events.filters.clear')}
        </Button>
      )}
    </Flex>
  );
}
