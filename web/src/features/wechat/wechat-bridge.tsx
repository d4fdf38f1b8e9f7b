import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { weChatBridge } from './wechat';

/**
 * Configures WeChat's JS-SDK inside WeChat, and again when the app changes its address (see
 * bridge.navigated). Renders nothing; does nothing in other browsers.
 */
export function WeChatBridge() {
  const { pathname, search } = useLocation();
  useEffect(() => {
    void weChatBridge()?.navigated(window.location.href);
  }, [pathname, search]);
  return null;
}
