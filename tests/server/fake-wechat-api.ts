import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake of WeChat's server API: `POST /cgi-bin/stable_token` (JSON, grant client_credential)
 * answers a token for the one AppID and AppSecret it knows, else WeChat's errcode (40013 invalid
 * appid, 40125 invalid appsecret), HTTP 200 either way as WeChat does.
 */
export async function startFakeWechatApi(app: { appid: string; secret: string }, port = 0) {
  const seen: { url: string; body: Record<string, unknown> }[] = [];
  const server = http.createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    request.on('end', () => {
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        /* answered below as a bad request */
      }
      seen.push({ url: `${request.method} ${request.url}`, body });
      const reply = (answer: Record<string, unknown>) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(answer));
      };
      if (request.method !== 'POST' || request.url !== '/cgi-bin/stable_token') {
        return reply({ errcode: 40066, errmsg: 'invalid url' });
      }
      if (body.grant_type !== 'client_credential') {
        return reply({ errcode: 40002, errmsg: 'invalid grant_type' });
      }
      if (body.appid !== app.appid) return reply({ errcode: 40013, errmsg: 'invalid appid' });
      if (body.secret !== app.secret) {
        return reply({ errcode: 40125, errmsg: 'invalid appsecret' });
      }
      reply({ access_token: 'stable-token-of-the-fake', expires_in: 7200 });
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}`,
    seen,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
