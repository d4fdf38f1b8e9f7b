import { DatePicker, Segmented } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { FarmZoneNote } from '@/components/farm-zone-note';
import type { HistoryDim } from '@/lib/telemetry/types';
import { presetRange, RANGE_PRESETS, type RangePreset, type TimeRange } from '@/lib/time-range';
import { fromPicker, pickerToday, toPicker } from '@/lib/farm-time';

/** A chosen period: one of the presets ending now, or days picked on the calendar. */
export type RangeChoice = { preset: RangePreset; range: TimeRange } | { preset: 'custom'; range: TimeRange };

export function choosePreset(preset: RangePreset): RangeChoice {
  return { preset, range: presetRange(preset) };
}

/**
 * Custom periods run from the first day's midnight to the last day's end on the farm's clock, or
 * now if sooner. `from` and `to` are picked calendar days (see toPicker).
 */
export function chooseDays(from: Dayjs, to: Dayjs, now: number = Date.now()): RangeChoice {
  const begin = fromPicker(from.startOf('day')).valueOf();
  const end = Math.min(fromPicker(to.startOf('day')).add(1, 'day').valueOf(), now);
  return { preset: 'custom', range: { begin, end: Math.max(end, begin + 60_000) } };
}

/** The longest custom period: a raw query may span 400 days; a year and a day keeps it simple. */
const MAX_CUSTOM_DAYS = 366;

interface RangeToolbarProps {
  choice: RangeChoice;
  onChoice: (choice: RangeChoice) => void;
  dim: HistoryDim;
  onDim: (dim: HistoryDim) => void;
}

export function RangeToolbar({ choice, onChoice, dim, onDim }: RangeToolbarProps) {
  const { t } = useTranslation('poi');
  const picked: [Dayjs, Dayjs] | null =
    choice.preset === 'custom' ? [toPicker(choice.range.begin), toPicker(choice.range.end - 1)] : null;
  return (
    <div className="fw-poi-toolbar" role="toolbar" aria-label={t('history.range')}>
      <Segmented<RangePreset | 'custom'>
        value={choice.preset}
        onChange={(value) => {
          if (value !== 'custom') onChoice(choosePreset(value));
        }}
        options={RANGE_PRESETS.map((preset) => ({ value: preset, label: t(`history.presets.${preset}`) }))}
      />
      <DatePicker.RangePicker
        value={picked}
        allowClear={false}
        aria-label={t('history.customRange')}
        placeholder={[t('history.from'), t('history.to')]}
        disabledDate={(current, { from }) =>
          current.isAfter(pickerToday().endOf('day')) || (from ? Math.abs(current.diff(from, 'day')) >= MAX_CUSTOM_DAYS : false)
        }
        onChange={(dates) => {
          if (dates?.[0] && dates[1]) onChoice(chooseDays(dates[0], dates[1]));
        }}
        className={choice.preset === 'custom' ? 'fw-poi-toolbar__picker fw-poi-toolbar__picker--active' : 'fw-poi-toolbar__picker'}
      />
      <FarmZoneNote className="fw-poi-toolbar__zone" />
      <span className="fw-poi-toolbar__spacer" />
      <Segmented<HistoryDim>
        value={dim}
        onChange={onDim}
        options={[
          { value: 'raw', label: t('history.dim.raw') },
          { value: 'daily', label: t('history.dim.daily') },
        ]}
      />
    </div>
  );
}
