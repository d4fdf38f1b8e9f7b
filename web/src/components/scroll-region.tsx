import { useEffect, useRef, type ReactNode } from 'react';

/**
 * Wraps a table that scrolls sideways (antd's `scroll.x`) so its scrolling box can be reached and
 * scrolled from the keyboard: the box gets a tab stop and a name (axe: scrollable-region-focusable).
 */
export function ScrollRegion({ label, children }: { label: string; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.querySelectorAll<HTMLElement>('.ant-table-content, .ant-table-body').forEach((box) => {
      box.tabIndex = 0;
      box.setAttribute('role', 'region');
      box.setAttribute('aria-label', label);
    });
  });
  return <div ref={ref}>{children}</div>;
}
