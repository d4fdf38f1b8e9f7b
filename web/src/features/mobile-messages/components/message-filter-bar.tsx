import { CheckList, Dropdown, type DropdownRef } from 'antd-mobile';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { KINDS, LEVELS, type Kind, type Level } from '@/features/events/types';
import type { MessageFilters } from '../list-state';

const ANY = 'any';

interface MessageFilterBarProps {
  filters: MessageFilters;
  onChange: (filters: Partial<MessageFilters>) => void;
}

/** Read state, level and kind, as drop-downs across the top of the list. */
export function MessageFilterBar({ filters, onChange }: MessageFilterBarProps) {
  const { t } = useTranslation('rules');
  const dropdown = useRef<DropdownRef>(null);
  const pick = (next: Partial<MessageFilters>) => {
    onChange(next);
    dropdown.current?.close();
  };
  return (
    <div className="fw-m-message-filters">
      <Dropdown ref={dropdown}>
        <Dropdown.Item
          key="read"
          title={filters.unread ? t('events.unreadOnly') : t('mobile.allMessages')}
          highlight={filters.unread}
          data-testid="filter-read"
        >
          <CheckList value={[filters.unread ? 'unread' : ANY]} onChange={([value]) => pick({ unread: value === 'unread' })}>
            <CheckList.Item value={ANY}>{t('mobile.allMessages')}</CheckList.Item>
            <CheckList.Item value="unread">{t('events.unreadOnly')}</CheckList.Item>
          </CheckList>
        </Dropdown.Item>
        <Dropdown.Item
          key="level"
          title={filters.level ? t(`levels.${filters.level}`) : t('events.filters.level')}
          highlight={filters.level !== undefined}
          data-testid="filter-level"
        >
          <CheckList
            value={[filters.level ?? ANY]}
            onChange={([value]) => pick({ level: value === ANY || value === undefined ? undefined : (value as Level) })}
          >
            <CheckList.Item value={ANY}>{t('events.filters.level')}</CheckList.Item>
            {LEVELS.map((level) => (
              <CheckList.Item key={level} value={level}>
                {t(`levels.${level}`)}
              </CheckList.Item>
            ))}
          </CheckList>
        </Dropdown.Item>
        <Dropdown.Item
          key="kind"
          title={filters.kind ? t(`events.kinds.${filters.kind}`) : t('events.filters.kind')}
          highlight={filters.kind !== undefined}
          data-testid="filter-kind"
        >
          <CheckList
            value={[filters.kind ?? ANY]}
            onChange={([value]) => pick({ kind: value === ANY || value === undefined ? undefined : (value as Kind) })}
          >
            <CheckList.Item value={ANY}>{t('events.filters.kind')}</CheckList.Item>
            {KINDS.map((kind) => (
              <CheckList.Item key={kind} value={kind}>
                {t(`events.kinds.${kind}`)}
              </CheckList.Item>
            ))}
          </CheckList>
        </Dropdown.Item>
      </Dropdown>
    </div>
  );
}
