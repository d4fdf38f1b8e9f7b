import { QuestionCircleOutlined } from '@ant-design/icons';
import { Button, Popover } from 'antd';
import { useTranslation } from 'react-i18next';
import { SHORTCUTS } from '../lib/shortcuts';

/** The labelling page's keyboard shortcuts, in a popover opened by its button or by "?". */
export function ShortcutsHelp({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { t } = useTranslation('ailab');
  const table = (
    <table className="fw-label-help" data-testid="label-shortcuts">
      <tbody>
        {SHORTCUTS.map((shortcut) => (
          <tr key={shortcut.action}>
            <td>
              {shortcut.keys.map((key) =>
                key === '…' ? (
                  <span key={key}> … </span>
                ) : (
                  <kbd key={key} className="fw-lab-key">
                    {key}
                  </kbd>
                ),
              )}
            </td>
            <td>{t(`shortcuts.${shortcut.action}`)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
  return (
    <Popover open={open} onOpenChange={onOpenChange} trigger="click" title={t('shortcuts.title')} content={table} placement="bottomRight">
      <Button icon={<QuestionCircleOutlined />} aria-label={t('shortcuts.title')} aria-keyshortcuts="?" data-testid="label-help" />
    </Popover>
  );
}
