import { unstableSetRender } from 'antd-mobile';
import { createRoot, type Root } from 'react-dom/client';

type Host = (Element | DocumentFragment) & { fieldwatchRoot?: Root };

/** antd-mobile's imperative dialogs and toasts need React 19's root API to mount. */
export function installMobileRender() {
  unstableSetRender((node, container) => {
    const host = container as Host;
    host.fieldwatchRoot ??= createRoot(host);
    const root = host.fieldwatchRoot;
    root.render(node);
    return async () => {
      await Promise.resolve();
      root.unmount();
      delete host.fieldwatchRoot;
    };
  });
}
