import { useLayoutEffect, useRef, type ReactNode } from 'react';

/**
 * A table's select-all checkbox, for rowSelection.columnTitle. antd copies every column title
 * into a hidden row it measures column widths with (`aria-hidden`); the copy of this checkbox
 * would stay in the tab order there, a focusable control nobody can see or hear. The copy is made
 * inert; the checkbox in the header is untouched.
 */
export function selectAllTitle(checkbox: ReactNode): ReactNode {
  return <SelectAllTitle>{checkbox}</SelectAllTitle>;
}

function SelectAllTitle({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el?.closest('[aria-hidden="true"]')) return;
    el.inert = true;
    el.querySelectorAll<HTMLElement>('input, button, [tabindex]').forEach((control) => (control.tabIndex = -1));
  });
  return (
    <div ref={ref} className="fw-select-all">
      {children}
    </div>
  );
}
