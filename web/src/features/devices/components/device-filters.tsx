import { ClearOutlined } from '@ant-design/icons';
import { Button, Flex, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { useTags } from '../api/get-tags';
import { CATEGORIES, DEVICE_TYPES } from '../device-types';
import type { ListFilters } from '../list-query';
import { BELONGS, DEVICE_STATUSES, type Belong, type DeviceStatus } from '../types';

interface DeviceFiltersProps {
  value: ListFilters;
  onChange: (filters: Partial<ListFilters>) => void;
  onClear: () => void;
  canClear: boolean;
  /** Ownership and tags narrow the list only: the map has every device. */
  listOnly?: boolean;
}

export function DeviceFilters({ value, onChange, onClear, canClear, listOnly = true }: DeviceFiltersProps) {
  const { t } = useTranslation('devices');
  const tags = useTags();

  const typeOptions = CATEGORIES.map((category) => ({
    label: t(`categories.${category}`),
    title: t(`categories.${category}`),
    options: DEVICE_TYPES.filter((type) => type.category === category).map((type) => ({
      value: type.id,
      label: t(`types.${type.id}` as 'types.1'),
    })),
  }));

  return (
    <Flex wrap gap={12} align="center" className="fw-device-filters" role="search">
      <Input.Search
        key={value.nameOrSn}
        className="fw-device-filters__search"
        defaultValue={value.nameOrSn}
        placeholder={t('filters.search')}
        aria-label={t('filters.search')}
        allowClear
        enterButton
        onSearch={(text) => onChange({ nameOrSn: text.trim() })}
      />
      <Select<DeviceStatus>
        className="fw-device-filters__select"
        value={value.status}
        placeholder={t('filters.status')}
        aria-label={t('filters.status')}
        allowClear
        onChange={(status) => onChange({ status })}
        options={DEVICE_STATUSES.map((status) => ({ value: status, label: t(`status.${status}`) }))}
        data-testid="filter-status"
      />
      <Select<number>
        className="fw-device-filters__select fw-device-filters__select--wide"
        value={value.typeId}
        placeholder={t('filters.type')}
        aria-label={t('filters.type')}
        allowClear
        showSearch={{ optionFilterProp: 'label' }}
        onChange={(typeId) => onChange({ typeId })}
        options={typeOptions}
        popupMatchSelectWidth={false}
        data-testid="filter-type"
      />
      {listOnly && (
        <>
          <Select<number>
            className="fw-device-filters__select"
            value={value.tagId}
            placeholder={t('filters.tag')}
            aria-label={t('filters.tag')}
            allowClear
            loading={tags.isPending}
            onChange={(tagId) => onChange({ tagId })}
            options={(tags.data ?? []).map((tag) => ({ value: tag.tagId, label: tag.tag }))}
            data-testid="filter-tag"
          />
          <Select<Belong>
            className="fw-device-filters__select"
            aria-label={t('filters.belong.label')}
            value={value.belong}
            onChange={(belong) => onChange({ belong })}
            options={BELONGS.map((belong) => ({ value: belong, label: t(`filters.belong.${belong}`) }))}
            data-testid="filter-belong"
          />
        </>
      )}
      {canClear && (
        <Button type="link" icon={<ClearOutlined />} onClick={onClear}>
          {t('filters.clear')}
        </Button>
      )}
    </Flex>
  );
}
