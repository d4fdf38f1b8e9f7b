import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { AntdProviders } from '@/app/antd-shell';
import { AppProvider, createQueryClient } from '@/app/provider';

interface RenderOptions {
  /** Phone mode instead of desktop. */
  mobile?: boolean;
  /** The address the memory router starts at. */
  path?: string;
}

/**
 * Renders a whole route table with the app's providers, as the browser would at `path`; on the
 * desktop inside antd's too (the app's desktop routes are: a table of a test's own has no shell).
 */
export function renderRoutes(routes: RouteObject[], { mobile = false, path = '/' }: RenderOptions = {}) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const queryClient = createQueryClient();
  const view = render(
    <AppProvider mobile={mobile} queryClient={queryClient}>
      {mobile ? (
        <RouterProvider router={router} />
      ) : (
        <AntdProviders>
          <RouterProvider router={router} />
        </AntdProviders>
      )}
    </AppProvider>,
  );
  return { ...view, router, queryClient };
}

/** Renders one component inside the app's providers and a router (and antd's, on the desktop). */
export function renderWithProviders(ui: ReactElement, options: RenderOptions = {}) {
  return renderRoutes([{ path: '*', element: ui }], options);
}

/** A fetch stand-in answering every call with the given envelope and HTTP status. */
export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}
