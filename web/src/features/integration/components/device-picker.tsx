import { SearchOutlined } from '@ant-design/icons';
import { Button, Checkbox, Empty, Flex, Input, Segmented, Spin, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ServerErrorAlert } from '@/components/server-error-alert';
import { useDeviceSelector } from '../api/get-device-selector';
import { CATEGORIES, type Category, type DeviceChoice } from '../types';
import './integration.css';

export interface DevicePickerProps {
  value?: number[];
  onChange?: (ids: number[]) => void;
  /** Set by Form.Item so the label points here and errors scroll here. */
  id?: string;
  status?: 'error' | 'warning' | '';
  disabled?: boolean;
}

const ALL = 'all';

function isCategory(value: string): value is Category {
  return (CATEGORIES as readonly string[]).includes(value);
}

function matches(device: DeviceChoice, needle: string): boolean {
  if (needle === '') return true;
  return device.name.toLowerCase().includes(needle) || device.sn.toLowerCase().includes(needle);
}

/**
 * Chooses devices among those the account may push (its own, and shared ones with the export
 * right): search by name or SN, narrow to a category, select everything shown at once.
 */
export function DevicePicker({ value, onChange, id, status, disabled }: DevicePickerProps) {
  const { t } = useTranslation('integration');
  const devices = useDeviceSelector();
  const [search, setSearch] = useState('');
  const [category, setCategory] = useState<string>(ALL);
  const selected = useMemo(() => new Set(value ?? []), [value]);
  const all = useMemo(() => devices.data ?? [], [devices.data]);
  const needle = search.trim().toLowerCase();

  const shown = useMemo(
    () => all.filter((device) => (category === ALL || device.category === category) && matches(device, needle)),
    [all, category, needle],
  );
  const groups = useMemo(() => {
    const order = [...CATEGORIES, ...new Set(all.map((d) => d.category).filter((c) => !isCategory(c)))];
    return order
      .map((key) => ({ key, devices: shown.filter((device) => device.category === key) }))
      .filter((group) => group.devices.length > 0);
  }, [all, shown]);
  const present = useMemo(() => new Set(all.map((device) => device.category)), [all]);
  // Chosen earlier but no longer offered (deleted, or the export right was taken away).
  const missing = (value ?? []).filter((poiId) => devices.data && !all.some((device) => device.poiId === poiId));

  const set = (ids: Iterable<number>) => onChange?.([...new Set(ids)]);
  const toggle = (poiId: number, checked: boolean) => {
    const next = new Set(selected);
    if (checked) next.add(poiId);
    else next.delete(poiId);
    set(next);
  };
  const toggleMany = (list: DeviceChoice[], checked: boolean) => {
    const next = new Set(selected);
    for (const device of list) {
      if (checked) next.add(device.poiId);
      else next.delete(device.poiId);
    }
    set(next);
  };
  const stateOf = (list: DeviceChoice[]) => {
    const count = list.filter((device) => selected.has(device.poiId)).length;
    return { checked: list.length > 0 && count === list.length, indeterminate: count > 0 && count < list.length };
  };
  const shownState = stateOf(shown);
  const categoryLabel = (key: string): string => (isCategory(key) ? t(`categories.${key}`) : key || t('picker.other'));

  return (
    <div id={id} className={`fw-device-picker${status === 'error' ? ' fw-device-picker--error' : ''}`} data-testid="device-picker">
      <Flex gap={8} wrap align="center" className="fw-device-picker__toolbar">
        <Input
          allowClear
          prefix={<SearchOutlined />}
          placeholder={t('picker.search')}
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          className="fw-device-picker__search"
          disabled={disabled}
          aria-label={t('picker.search')}
        />
        <Segmented
          size="small"
          value={category}
          onChange={(next) => setCategory(String(next))}
          disabled={disabled}
          options={[
            { value: ALL, label: t('picker.allCategories') },
            ...CATEGORIES.filter((key) => present.has(key)).map((key) => ({ value: key, label: t(`categories.${key}`) })),
          ]}
        />
      </Flex>
      <Flex justify="space-between" align="center" className="fw-device-picker__summary">
        <Checkbox
          checked={shownState.checked}
          indeterminate={shownState.indeterminate}
          disabled={disabled || shown.length === 0}
          onChange={(event) => toggleMany(shown, event.target.checked)}
          data-testid="device-picker-all"
        >
          {needle !== '' || category !== ALL ? t('picker.selectShown', { count: shown.length }) : t('picker.selectAll', { count: shown.length })}
        </Checkbox>
        <Flex align="center" gap={8}>
          <Typography.Text type={selected.size > 0 ? undefined : 'secondary'} data-testid="device-picker-count">
            {t('picker.selected', { count: selected.size })}
          </Typography.Text>
          {selected.size > 0 && (
            <Button type="link" size="small" onClick={() => set([])} disabled={disabled}>
              {t('picker.clear')}
            </Button>
          )}
        </Flex>
      </Flex>
      <div className="fw-device-picker__list">
        {devices.isPending ? (
          <Flex justify="center" className="fw-device-picker__loading">
            <Spin />
          </Flex>
        ) : devices.error ? (
          <ServerErrorAlert error={devices.error} />
        ) : groups.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={all.length === 0 ? t('picker.none') : t('picker.noMatch')} />
        ) : (
          groups.map((group) => {
            const state = stateOf(group.devices);
            return (
              <div key={group.key} className="fw-device-picker__group" role="group" aria-label={categoryLabel(group.key)}>
                <Checkbox
                  className="fw-device-picker__group-title"
                  checked={state.checked}
                  indeterminate={state.indeterminate}
                  disabled={disabled}
                  onChange={(event) => toggleMany(group.devices, event.target.checked)}
                >
                  {categoryLabel(group.key)} <Typography.Text type="secondary">({group.devices.length})</Typography.Text>
                </Checkbox>
                {group.devices.map((device) => (
                  <Checkbox
                    key={device.poiId}
                    className="fw-device-picker__item"
                    checked={selected.has(device.poiId)}
                    disabled={disabled}
                    onChange={(event) => toggle(device.poiId, event.target.checked)}
                  >
                    <span className="fw-device-picker__name">{device.name}</span>
                    <Typography.Text type="secondary" className="fw-device-picker__meta">
                      {device.sn} · {device.typeName}
                    </Typography.Text>
                  </Checkbox>
                ))}
              </div>
            );
          })
        )}
      </div>
      {missing.length > 0 && (
        <Typography.Text type="warning" className="fw-device-picker__missing">
          {t('picker.missing', { count: missing.length })}{' '}
          <Button type="link" size="small" onClick={() => set((value ?? []).filter((poiId) => !missing.includes(poiId)))}>
            {t('picker.dropMissing')}
          </Button>
        </Typography.Text>
      )}
    </div>
  );
}
