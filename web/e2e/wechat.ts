import { createHash } from 'node:crypto';
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
  /** The scene of each parametric QR code handed out, by its ticket. */
  scenes: Map<string, string>;
}

/** The server token of the Official Account (--wechat-token): WeChat signs its pushes with it. */
export const WECHAT_TOKEN = 'e2e-callback-token';

/** A stand-in QR code picture: a pattern drawn from the ticket (no phone scans it here). */
function qrPicture(ticket: string): string {
  const bits = createHash('sha256').update(ticket).digest();
  const cells: string[] = [];
  for (let y = 0; y < 21; y++) {
    for (let x = 0; x < 21; x++) {
      const finder = (x < 7 && y < 7) || (x > 13 && y < 7) || (x < 7 && y > 13);
      const on = finder
        ? Math.max(Math.abs((x % 14) - 3), Math.abs((y % 14) - 3)) !== 2
        : (bits[(y * 21 + x) % 32] >> ((x + y) % 8)) & 1;
      if (on) cells.push(`<rect x="${x + 2}" y="${y + 2}" width="1" height="1"/>`);
    }
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 25 25" shape-rendering="crispEdges"><rect width="25" height="25" fill="#fff"/><g fill="#111">${cells.join('')}</g></svg>`;
}

/** WeChat's token and jsapi_ticket endpoints, checking the app's credentials as WeChat does. */
export function startWeChatApi(port: number, appId: string, secret: string): Promise<WeChatApi> {
  let token = '';
  const api: Omit<WeChatApi, 'server'> = { url: `http://127.0.0.1:${port}`, tokens: 0, tickets: [], scenes: new Map() };
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
    if (url.pathname === '/cgi-bin/qrcode/create' && req.method === 'POST') {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        if (q.get('access_token') !== token) {
          res.end(JSON.stringify({ errcode: 40001, errmsg: 'invalid credential' }));
          return;
        }
        const ask = JSON.parse(body) as { action_name?: string; expire_seconds?: number; action_info?: { scene?: { scene_str?: string } } };
        const scene = ask.action_info?.scene?.scene_str ?? '';
        if (ask.action_name !== 'QR_STR_SCENE' || !scene || scene.length > 64) {
          res.end(JSON.stringify({ errcode: 40097, errmsg: 'invalid args' }));
          return;
        }
        const ticket = `gQH47joAAAAAAAAAASxodHRwOi8v${api.scenes.size + 1}==`;
        api.scenes.set(ticket, scene);
        res.end(JSON.stringify({ ticket, expire_seconds: ask.expire_seconds, url: `http://weixin.qq.com/q/e2e${api.scenes.size}` }));
      });
      return;
    }
    if (url.pathname === '/cgi-bin/showqrcode' && api.scenes.has(q.get('ticket') ?? '')) {
      res.setHeader('Content-Type', 'image/svg+xml');
      res.end(qrPicture(q.get('ticket')!));
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
    args: [
      '--wechat-api', api.url, '--wechat-mp-url', api.url, '--wechat-appid', WECHAT_APP.appId, '--wechat-secret', WECHAT_APP.secret,
      '--wechat-template', `tmpl-${name}`, '--wechat-token', WECHAT_TOKEN,
    ],
  });
  const stop = async () => {
    await server.stop();
    await new Promise((resolve) => api.server.close(resolve));
  };
  return { api, server, stop };
}

/**
 * What WeChat's server does when the user openid scans the QR code whose image is at image: it
 * pushes a SCAN event (a subscribe one for a new follower) to the console's callback URL, signed
 * with the server token. Returns the console's answer.
 */
export async function scanQRCode(api: WeChatApi, consoleBase: string, image: string, openid: string, follower = true) {
  const ticket = new URL(image).searchParams.get('ticket') ?? '';
  const scene = api.scenes.get(ticket);
  if (!scene) throw new Error(`no QR code with ticket ${ticket}`);
  const timestamp = String(Math.floor(Date.now() / 1000));
  const nonce = String(Math.floor(Math.random() * 1e9));
  const signature = createHash('sha1').update([WECHAT_TOKEN, timestamp, nonce].sort().join('')).digest('hex');
  const [event, key] = follower ? ['SCAN', scene] : ['subscribe', `qrscene_${scene}`];
  const body =
    `<xml><ToUserName><![CDATA[gh_e2e]]></ToUserName><FromUserName><![CDATA[${openid}]]></FromUserName>` +
    `<CreateTime>${timestamp}</CreateTime><MsgType><![CDATA[event]]></MsgType><Event><![CDATA[${event}]]></Event>` +
    `<EventKey><![CDATA[${key}]]></EventKey><Ticket><![CDATA[${ticket}]]></Ticket></xml>`;
  const res = await fetch(`${consoleBase}/apis/wechat/callback?${new URLSearchParams({ signature, timestamp, nonce, openid })}`, {
    method: 'POST',
    headers: { 'Content-Type': 'text/xml' },
    body,
  });
  return { status: res.status, body: await res.text() };
}
