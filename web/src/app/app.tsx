import { useState } from 'react';
import { RouterProvider } from 'react-router';
import { AppProvider } from './provider';
import { createAppRouter } from './router';

/** The app; a router created beforehand has already started loading the first page's code. */
export function App({ router: created }: { router?: ReturnType<typeof createAppRouter> }) {
  const [router] = useState(() => created ?? createAppRouter());
  return (
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>
  );
}
