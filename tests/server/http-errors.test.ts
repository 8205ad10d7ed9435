import net from 'node:net';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { loggableUrl } from '../../server/platform/http/request-log';
import { api, createTestApp, engines, type Reply, type TestApp } from './helpers';

const EN = { lang: 'en-US' };

/** One raw HTTP/1.1 exchange with a listening server: status, headers and body as sent. */
async function rawExchange(port: number, request: string) {
  const text = await new Promise<string>((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('end', () => resolve(received));
    socket.on('close', () => resolve(received));
    socket.on('error', (error) => (received ? resolve(received) : reject(error)));
    socket.write(request);
  });
  const [head, ...rest] = text.split('\r\n\r\n');
  const [statusLine, ...headerLines] = head.split('\r\n');
  const headers = Object.fromEntries(
    headerLines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 2)]),
  );
  return { status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') };
}

describe.each(engines)('API replies on %s', (engine) => {
  let t: TestApp;
  afterEach(async () => {
    await t?.close();
  });

  it('forbid caching on every API reply: successes, refusals, 401/403/404, parse errors, downloads, notifications', async () => {
    t = await createTestApp(engine);
    const admin = await t.login('admin');
    const merchant = await t.login('merchant');
    const ticket = await t.post<{ url: string }>('/recharge_card/export_ticket', {}, admin);
    const replies: Record<string, Reply> = {
      login: await t.post('/platform/login', { account: 'admin', password: 'Demo@2026' }),
      wrongPassword: await t.post('/platform/login', { account: 'admin', password: 'x' }),
      userInfo: await t.post('/platform/get_user_info', undefined, admin),
      menu: await t.post('/api/user/menu', undefined, admin),
      systemInfo: await t.get('/platform/get_system_info', { domain: 'localhost' }),
      cards: await t.get('/recharge_card/list', {}, admin),
      customers: await t.get('/customer/merchant_list', {}, admin),
      ledger: await t.get('/money/log_list', {}, admin),
      orders: await t.get('/recharge_order/list', {}, admin),
      unauthenticated: await t.post('/platform/get_user_info'),
      forbidden: await t.get('/recharge_package/list', {}, await t.login('agent')),
      validation: await t.post('/money/transfer', { amount: 'x' }, merchant),
      notFound: await t.call('GET', api('/nothing/here')),
      malformed: await t.call('POST', api('/platform/login'), { payload: '{' }),
      wrongType: await t.call('POST', api('/platform/login'), {
        payload: 'a=b',
        contentType: 'text/plain',
      }),
      export: await t.call('GET', ticket.body.data.url),
      usedTicket: await t.call('GET', ticket.body.data.url),
      notify: await t.call('POST', api('/pay/notify/sandbox'), { body: {} }),
      checkout: await t.call('GET', api('/pay/sandbox/checkout'), { query: { order_no: 'x' } }),
    };
    expect(replies.export.status).toBe(200);
    expect(replies.export.headers['content-type']).toMatch(/^text\/csv/);
    for (const [name, reply] of Object.entries(replies)) {
      expect(reply.headers['cache-control'], name).toBe('no-store');
    }
  });

  it('answer framework errors with the envelope in the caller’s language', async () => {
    t = await createTestApp(engine);
    const cases: [string, Awaited<ReturnType<TestApp['call']>>, number, string][] = [
      [
        'bad JSON',
        await t.call('POST', api('/platform/login'), { payload: '{"a":', headers: EN }),
        400,
        'The request is not valid JSON',
      ],
      [
        'body too large',
        await t.call('POST', api('/platform/login'), {
          payload: JSON.stringify({ account: 'x'.repeat(70_000) }),
          headers: EN,
        }),
        413,
        'The request is too large',
      ],
      [
        'unsupported type',
        await t.call('POST', api('/platform/login'), {
          payload: 'x',
          contentType: 'text/plain',
          headers: EN,
        }),
        415,
        'Send the request body as JSON',
      ],
      [
        'unknown route',
        await t.call('GET', api('/nope'), { headers: EN }),
        404,
        'No such API call',
      ],
      [
        'unknown method',
        await t.call('GET', api('/platform/login'), { headers: EN }),
        404,
        'No such API call',
      ],
      [
        'bad URL',
        await t.call('GET', `${api('/platform/x')}%zz`, { headers: EN }),
        400,
        'Bad request',
      ],
      ['bad URL (zh-CN)', await t.call('GET', `${api('/platform/x')}%zz`), 400, '请求无效'],
    ];
    for (const [name, reply, status, msg] of cases) {
      expect(reply.status, name).toBe(status);
      expect(reply.body, name).toEqual({ code: 0, msg, data: null });
      expect(reply.headers['cache-control'], name).toBe('no-store');
    }
  });

  it('answer headers or URLs too large for Node’s parser (431) and malformed HTTP (400) with the envelope', async () => {
    t = await createTestApp(engine);
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = t.app.server.address() as net.AddressInfo;
    const big = 'x'.repeat(20_000);
    const cases: [string, string, number, string][] = [
      [
        'header too large',
        `GET /api/v1/platform/get_system_info HTTP/1.1\r\nHost: a\r\nlang: en-US\r\nX-Big: ${big}\r\n\r\n`,
        431,
        'The request headers or the address are too long',
      ],
      [
        'URL too long',
        `GET /api/v1/platform/get_system_info?domain=${big} HTTP/1.1\r\nHost: a\r\n\r\n`,
        431,
        '请求头或请求地址过长',
      ],
      [
        'NUL in a header (never reaches the database)',
        'GET /api/v1/platform/get_system_info HTTP/1.1\r\nHost: local\u0000host\r\nlang: en-US\r\n\r\n',
        400,
        'Bad request',
      ],
      [
        'malformed request',
        'GET /api/v1/platform/get_system_info HTTP/1.1\r\nHost: a\r\nlang: en-US\r\nBad Header\r\n\r\n',
        400,
        'Bad request',
      ],
    ];
    for (const [name, request, status, msg] of cases) {
      const reply = await rawExchange(port, request);
      expect(reply.status, name).toBe(status);
      expect(reply.headers['content-type'], name).toBe('application/json; charset=utf-8');
      expect(reply.headers['cache-control'], name).toBe('no-store');
      expect(Number(reply.headers['content-length']), name).toBe(Buffer.byteLength(reply.body));
      expect(JSON.parse(reply.body), name).toEqual({ code: 0, msg, data: null });
    }
  });

  it('log request paths with tickets, signatures and tokens redacted', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    t = await createTestApp(engine, { logger: { level: 'info', stream } });
    const admin = await t.login('admin');
    const ticket = await t.post<{ url: string; ticket: string }>(
      '/recharge_card/export_ticket',
      {},
      admin,
    );
    await t.call('GET', ticket.body.data.url);
    await t.call('GET', api('/pay/sandbox/checkout?order_no=R1&sign=abcdef0123456789'));
    await t.call('GET', api('/recharge_card/list?keyword=shop&card_pwd=hunter2&token=tok123'));
    const logged = lines.join('');
    expect(logged).toContain('/api/v1/recharge_card/export_data?ticket=[redacted]');
    expect(logged).toContain('/api/v1/pay/sandbox/checkout?order_no=R1&sign=[redacted]');
    expect(logged).toContain('keyword=shop&card_pwd=[redacted]&token=[redacted]');
    for (const secret of [ticket.body.data.ticket, 'abcdef0123456789', 'hunter2', 'tok123']) {
      expect(logged).not.toContain(secret);
    }
  });
});

describe('loggableUrl', () => {
  it('keeps paths and ordinary parameters, and redacts secret-looking ones', () => {
    expect(loggableUrl('/api/v1/x')).toBe('/api/v1/x');
    expect(loggableUrl('/a?page=2&keyword=key')).toBe('/a?page=2&keyword=key');
    expect(loggableUrl('/a?ticket=t&sign=s&api_key=k&Token=x&code=1&flag')).toBe(
      '/a?ticket=[redacted]&sign=[redacted]&api_key=[redacted]&Token=[redacted]&code=[redacted]&flag',
    );
    expect(loggableUrl('/a?%74icket=t')).toBe('/a?%74icket=[redacted]');
  });
});
