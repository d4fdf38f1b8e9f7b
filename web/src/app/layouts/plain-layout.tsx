import { Outlet } from 'react-router';
import { Logo } from '@/components/logo';

/** A bare page with the product mark: device code landing pages and the public portals. */
export function PlainLayout() {
  return (
    <div className="fw-plain">
      <header className="fw-plain__header">
        <Logo size={26} />
      </header>
      <main className="fw-plain__main">
        <Outlet />
      </main>
    </div>
  );
}
