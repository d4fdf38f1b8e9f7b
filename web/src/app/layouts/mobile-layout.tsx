import { Outlet } from 'react-router';

/** The frame of every phone screen. */
export function MobileLayout() {
  return (
    <div className="fw-mobile">
      <Outlet />
    </div>
  );
}
