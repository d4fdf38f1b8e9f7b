import { createServer, type Server } from 'node:http';
import { freePort, startOwnServer, type OwnServer } from './own-server';

// WeChat for the browser flows. WeChat's native bridge cannot be reached here, so a page gets a
// stand-in WeixinJSBridge (the object the official JS-SDK talks to) that records every call and
// answers as WeChat does; the real weixin-js-sdk runs on top of it. The server signs pages with a
// jsapi_ticket from a local server speaking WeChat's token/ticket wire format.

/** WeChat's browser on Android, as its user agent names itself. */
export const WECHAT_UA =
  'Mozilla/5.0 (Linux; Android 13; Pixel 7 Build/TQ3A.230805.001; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/116.0.0.0 Mobile Safari/537.36 XWEB/1160065 MMWEBSDK/20231202 MMWEBID/2247 MicroMessenger/8.0.47.2560(0x28002F30) WeChat/arm64 Weixin NetType/WIFI Language/zh_CN ABI/arm64';

/** The Official Account the local WeChat API knows, and the console is configured with. */
export const WECHAT_APP = { appId: 'wxe2eapp', secret: 'e2e-secret' };

/** What the local WeChat API handed out. */
export interface WeChatApi {
  server: Server;
  /** The address to give the console's --wechat-api. */
  url: string;
  tokens: number;
  tickets: string[];
}

/** WeChat's token and jsapi_ticket endpoints, checking the app's credentials as WeChat does. */
export function startWeChatApi(port: number, appId: string, secret: string): Promise<WeChatApi> {
  let token = '';
  const api: Omit<WeChatApi, 'server'> = { url: `http://127.0.0.1:${port}`, tokens: 0, tickets: [] };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const q = url.searchParams;
    res.setHeader('Content-Type', 'application/json');
    if (url.pathname === '/cgi-bin/token') {
      if (q.get('grant_type') !== 'client_credential' || q.get('appid') !== appId || q.get('secret') !== secret) {
        res.end(JSON.stringify({ errcode: 40013, errmsg: 'invalid appid' }));
        return;
      }
      api.tokens++;
      token = `TOKEN${api.tokens}`;
      res.end(JSON.stringify({ access_token: token, expires_in: 7200 }));
      return;
    }
    if (url.pathname === '/cgi-bin/ticket/getticket') {
      if (q.get('type') !== 'jsapi' || q.get('access_token') !== token) {
        res.end(JSON.stringify({ errcode: 40001, errmsg: 'invalid credential' }));
        return;
      }
      const ticket = `kgt8ON7yVITDhtdwci0qeT${api.tickets.length + 1}`;
      api.tickets.push(ticket);
      res.end(JSON.stringify({ errcode: 0, errmsg: 'ok', ticket, expires_in: 7200 }));
      return;
    }
    res.statusCode = 404;
    res.end('{}');
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(Object.assign(api, { server }))));
}

/** A call the page made to WeChat's bridge. */
export interface BridgeCall {
  name: string;
  args: Record<string, unknown>;
  href: string;
}

/**
 * In the page (addInitScript): the stand-in bridge. Calls collect in `window.__wxCalls`, and are
 * also reported through `window.__wxReport` when the test exposed one.
 */
export function stubWeChatBridge() {
  const calls: BridgeCall[] = [];
  const w = window as unknown as { WeixinJSBridge: unknown; __wxCalls: BridgeCall[]; __wxReport?: (call: BridgeCall) => void };
  w.__wxCalls = calls;
  w.WeixinJSBridge = {
    invoke(name: string, args: Record<string, unknown>, callback?: (res: Record<string, unknown>) => void) {
      const call = { name, args: JSON.parse(JSON.stringify(args)) as Record<string, unknown>, href: location.href };
      calls.push(call);
      void w.__wxReport?.(call);
      const answers: Record<string, Record<string, unknown>> = {
        preVerifyJSAPI: { err_msg: 'config:ok' },
        geoLocation: { err_msg: 'geoLocation:ok', latitude: 30.27, longitude: 120.15, speed: 0, accuracy: 25 },
        getNetworkType: { err_msg: 'network_type:wifi' },
      };
      setTimeout(() => callback?.(answers[name] ?? { err_msg: `${name}:ok` }), 0);
    },
    on() {},
    call() {},
  };
}

/**
 * A console of its own (with `users` besides the demo account) whose WeChat calls go to a local
 * WeChat API; `stop` ends both.
 */
export async function startWeChatConsole(name: string, users?: { accountNumber: string; password: string; name: string }[]) {
  const api = await startWeChatApi(await freePort(), WECHAT_APP.appId, WECHAT_APP.secret);
  const server: OwnServer = await startOwnServer({
    name,
    users,
    args: ['--wechat-api', api.url, '--wechat-appid', WECHAT_APP.appId, '--wechat-secret', WECHAT_APP.secret, '--wechat-template', `tmpl-${name}`],
  });
  const stop = async () => {
    await server.stop();
    await new Promise((resolve) => api.server.close(resolve));
  };
  return { api, server, stop };
}
