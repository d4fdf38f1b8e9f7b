/** Receivers that check a delivery's signature, as the help page shows them. Code is the same in every language. */

export const NODE_RECEIVER = `// node receiver.js  (Node 18 or later, no packages needed)
const crypto = require('node:crypto');
const http = require('node:http');

const SECRET = process.env.FIELDWATCH_SECRET; // the channel's signing secret, whsec_… included
const seen = new Set(); // delivery ids already handled: a retry repeats its id

http
  .createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks); // the raw bytes: do not parse and re-serialize before checking
      const fields = Object.fromEntries(
        String(req.headers['x-fieldwatch-signature'] ?? '').split(',').map((part) => part.split('=')),
      );
      const expected = crypto.createHmac('sha256', SECRET).update(\`\${fields.t}.\`).update(body).digest('hex');
      const fresh = Math.abs(Date.now() / 1000 - Number(fields.t)) < 300; // refuse replays older than 5 minutes
      const valid =
        fresh &&
        typeof fields.v1 === 'string' &&
        fields.v1.length === expected.length &&
        crypto.timingSafeEqual(Buffer.from(fields.v1), Buffer.from(expected));
      if (!valid) {
        res.writeHead(401).end();
        return;
      }
      const delivery = req.headers['x-fieldwatch-delivery'];
      if (!seen.has(delivery)) {
        seen.add(delivery);
        const report = JSON.parse(body.toString('utf8'));
        console.log(report.device.sn, report.time, report.values, report.nodes);
      }
      res.writeHead(204).end(); // any 2xx acknowledges; anything else is retried
    });
  })
  .listen(8080);
`;

export const PYTHON_RECEIVER = `# python3 receiver.py  (standard library only)
import hashlib, hmac, json, os, time
from http.server import BaseHTTPRequestHandler, HTTPServer

SECRET = os.environ["FIELDWATCH_SECRET"].encode()  # the channel's signing secret, whsec_... included
seen = set()  # delivery ids already handled: a retry repeats its id

class Receiver(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))  # the raw bytes
        fields = dict(p.split("=", 1) for p in self.headers.get("X-Fieldwatch-Signature", "").split(",") if "=" in p)
        t, v1 = fields.get("t", ""), fields.get("v1", "")
        expected = hmac.new(SECRET, t.encode() + b"." + body, hashlib.sha256).hexdigest()
        fresh = t.isdigit() and abs(time.time() - int(t)) < 300  # refuse replays older than 5 minutes
        if not fresh or not hmac.compare_digest(v1, expected):
            self.send_response(401)
            self.end_headers()
            return
        delivery = self.headers.get("X-Fieldwatch-Delivery")
        if delivery not in seen:
            seen.add(delivery)
            report = json.loads(body)
            print(report["device"]["sn"], report["time"], report.get("values"), report.get("nodes"))
        self.send_response(204)  # any 2xx acknowledges; anything else is retried
        self.end_headers()

HTTPServer(("", 8080), Receiver).serve_forever()
`;

/** The body a receiver gets, as docs/api.md shows it; a channel's own example replaces it when one is chosen. */
export const EXAMPLE_BODY = {
  deliveryId: 1,
  channelId: 3,
  device: { id: 42, sn: 'ZSQ00600012345', typeId: 21 },
  ts: 1763884800000,
  time: '2025-11-23T08:00:00Z',
  values: { battery: 3.92 },
  nodes: { '10': { soilMoisture: 23.4, soilTemp: 12.1 } },
};

export const DEFAULT_RETRIES = ['1s', '2s', '4s', '8s', '16s', '32s', '1m4s', '2m8s'];
