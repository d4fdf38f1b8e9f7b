import { Dialog, Toast } from 'antd-mobile';
import { installMobileRender } from './mobile-render';

// Loaded on first use (lib/notice.ts, app/api-handlers-bridge.tsx), so a desktop page never
// downloads antd-mobile's toast, dialog and animation code.
installMobileRender();

export function showToast(content: string, icon?: 'success' | 'fail') {
  Toast.show(icon ? { icon, content } : { content });
}

export function showAlert(options: { title: string; content: string; confirmText: string }): Promise<void> {
  return Dialog.alert(options);
}
