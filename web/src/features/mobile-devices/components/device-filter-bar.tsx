import { CheckList, Dropdown, SearchBar, type DropdownRef } from 'antd-mobile';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useTags } from '@/features/devices/api/get-tags';
import { CATEGORIES, DEVICE_TYPES } from '@/features/devices/device-types';
import { DEVICE_STATUSES, type DeviceStatus } from '@/features/devices/types';
import { MAIN_STATUSES, type MobileDeviceState } from '../list-state';

/** How long typing pauses before the list follows the search box. */
export const SEARCH_DELAY_MS = 400;

const ANY = 'any';
const OTHER_STATUSES = DEVICE_STATUSES.filter((status) => !MAIN_STATUSES.includes(status));
const TYPES_IN_ORDER = CATEGORIES.flatMap((category) => DEVICE_TYPES.filter((type) => type.category === category));

type Filters = Omit<MobileDeviceState, 'view'>;

interface DeviceFilterBarProps {
  state: MobileDeviceState;
  onChange: (filters: Partial<Filters>) => void;
}

/** Search by name or SN ending, and status, type and tag drop-downs under it. */
export function DeviceFilterBar({ state, onChange }: DeviceFilterBarProps) {
  const { t } = useTranslation('devices');
  const dropdown = useRef<DropdownRef>(null);
  const tags = useTags();
  const [query, setQuery] = useState(state.nameOrSn);
  const [synced, setSynced] = useState(state.nameOrSn);

  // The address changed from outside (back, cleared filters): the box follows it.
  if (state.nameOrSn !== synced) {
    setSynced(state.nameOrSn);
    if (query.trim() !== state.nameOrSn) setQuery(state.nameOrSn);
  }

  // Typing searches once the fingers rest.
  useEffect(() => {
    const next = query.trim();
    if (next === state.nameOrSn) return;
    const timer = window.setTimeout(() => onChange({ nameOrSn: next }), SEARCH_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [query, state.nameOrSn, onChange]);

  const search = (value: string) => onChange({ nameOrSn: value.trim() });

  const pick = (filters: Partial<Filters>) => {
    onChange(filters);
    dropdown.current?.close();
  };

  const tagName = tags.data?.find((tag) => tag.tagId === state.tagId)?.tag;

  return (
    <div className="fw-m-filters">
      <div className="fw-m-filters__search">
        <SearchBar
          placeholder={t('filters.search')}
          value={query}
          onChange={setQuery}
          onSearch={search}
          onClear={() => search('')}
          aria-label={t('filters.search')}
        />
      </div>
      <Dropdown ref={dropdown} className="fw-m-filters__dropdown">
        <Dropdown.Item
          key="status"
          title={state.status ? t(`status.${state.status}`) : t('filters.status')}
          highlight={state.status !== undefined}
          data-testid="filter-status"
        >
          <CheckList
            value={[state.status ?? ANY]}
            onChange={([value]) => pick({ status: value === ANY || value === undefined ? undefined : (value as DeviceStatus) })}
          >
            <CheckList.Item value={ANY}>{t('filters.status')}</CheckList.Item>
            {[...MAIN_STATUSES, ...OTHER_STATUSES].map((status) => (
              <CheckList.Item key={status} value={status}>
                {t(`status.${status}`)}
              </CheckList.Item>
            ))}
          </CheckList>
        </Dropdown.Item>
        <Dropdown.Item
          key="type"
          title={state.typeId !== undefined ? t(`types.${state.typeId}` as 'types.1') : t('filters.type')}
          highlight={state.typeId !== undefined}
          data-testid="filter-type"
        >
          <div className="fw-m-filters__scroll">
            <CheckList
              value={[state.typeId === undefined ? ANY : String(state.typeId)]}
              onChange={([value]) => pick({ typeId: value === ANY || value === undefined ? undefined : Number(value) })}
            >
              <CheckList.Item value={ANY}>{t('filters.type')}</CheckList.Item>
              {TYPES_IN_ORDER.map((type) => (
                <CheckList.Item key={type.id} value={String(type.id)} description={`${t(`categories.${type.category}`)} · ${type.model}`}>
                  {t(`types.${type.id}` as 'types.1')}
                </CheckList.Item>
              ))}
            </CheckList>
          </div>
        </Dropdown.Item>
        <Dropdown.Item key="tag" title={tagName ?? t('filters.tag')} highlight={state.tagId !== undefined} data-testid="filter-tag">
          <div className="fw-m-filters__scroll">
            <CheckList
              value={[state.tagId === undefined ? ANY : String(state.tagId)]}
              onChange={([value]) => pick({ tagId: value === ANY || value === undefined ? undefined : Number(value) })}
            >
              <CheckList.Item value={ANY}>{t('filters.tag')}</CheckList.Item>
              {(tags.data ?? []).map((tag) => (
                <CheckList.Item key={tag.tagId} value={String(tag.tagId)}>
                  {tag.tag}
                </CheckList.Item>
              ))}
            </CheckList>
            {tags.data?.length === 0 && <div className="fw-m-filters__none">{t('mobile.noTags')}</div>}
          </div>
        </Dropdown.Item>
      </Dropdown>
    </div>
  );
}
