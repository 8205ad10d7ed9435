import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { formatUnits } from '../../../src/api/contract/money';
import { orderNoRule } from '../../../src/api/contract/recharge';
import { LOCALES, type Locale } from '../../../src/api/contract/messages';
import { API_PREFIX } from '../../platform/http/policy';
import { t, type ServerMessageId } from '../../platform/i18n';
import type { SandboxPaymentProvider } from '../../integrations/payment';
import { effectiveStatus, findOrderByNo } from './repo';

/**
 * The sandbox provider's own pages: `GET /pay/sandbox/checkout` (the pay_url: the order and a
 * "Pay" button) and `POST /pay/sandbox/pay` (the button's plain form post). Public: the link's
 * `sign` (an HMAC of the order number) is what lets its holder in. No script: CSP stays strict.
 */
const linkSchema = z.object({
  order_no: orderNoRule,
  sign: z.string().regex(/^[0-9a-f]{32}$/),
});

const CHECKOUT = `${API_PREFIX}/pay/sandbox/checkout`;
const PAGE = 'the checkout page (HTML; 404 for a link that is not valid)';

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/**
 * How the console that opened the page shows things: its language and time zone, carried as
 * `lang` and `tz` in the link (src/api/recharge.ts payPageUrl). Without them the page follows
 * the browser's language and shows Shanghai time, saying so.
 */
interface Viewer {
  locale: Locale;
  /** The language the link named (kept across the form post), if any. */
  lang?: Locale;
  /** An IANA zone the runtime knows, or undefined. */
  timeZone?: string;
}

function viewerOf(request: FastifyRequest, input: unknown): Viewer {
  const { lang, tz } = (input ?? {}) as { lang?: unknown; tz?: unknown };
  const named = LOCALES.find((l) => l === lang);
  const locale = named ?? request.locale;
  if (named) return { ...zoneOf(tz), locale, lang: named };
  return { ...zoneOf(tz), locale };
}

function zoneOf(tz: unknown): { timeZone?: string } {
  if (typeof tz !== 'string' || !/^[A-Za-z0-9_+\-/]{1,64}$/.test(tz)) return {};
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return { timeZone: tz };
  } catch {
    return {};
  }
}

/** `YYYY-MM-DD HH:mm` as the console shows times: in the viewer's zone, else Asia/Shanghai. */
function viewerTime(ms: number, viewer: Viewer): string {
  if (!viewer.timeZone) {
    return `${new Date(ms + 8 * 3600_000).toISOString().slice(0, 16).replace('T', ' ')} (UTC+8)`;
  }
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: viewer.timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    })
      .formatToParts(ms)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
}

/** The viewer's settings as query parameters or hidden fields, to keep them across the form post. */
const viewerParams = (viewer: Viewer): Record<string, string> => ({
  ...(viewer.lang ? { lang: viewer.lang } : {}),
  ...(viewer.timeZone ? { tz: viewer.timeZone } : {}),
});

interface PageContent {
  viewer: Viewer;
  notice?: ServerMessageId;
  order?: { order_no: string; package_name: string; amount: number; expires_at: number };
  payable?: { order_no: string; sign: string };
}

function page({ viewer, notice, order, payable }: PageContent): string {
  const { locale } = viewer;
  const tr = (id: ServerMessageId) => escapeHtml(t(locale, id));
  const rows = order
    ? `<dl>
<dt>${tr('sandbox.orderNo')}</dt><dd>${escapeHtml(order.order_no)}</dd>
<dt>${tr('sandbox.item')}</dt><dd>${escapeHtml(order.package_name)}</dd>
<dt>${tr('sandbox.amount')}</dt><dd class="amount">¥${formatUnits('money', order.amount)}</dd>
<dt>${tr('sandbox.expiresAt')}</dt><dd>${escapeHtml(viewerTime(order.expires_at, viewer))}</dd>
</dl>`
    : '';
  const form = payable
    ? `<form method="post" action="${API_PREFIX}/pay/sandbox/pay">
<input type="hidden" name="order_no" value="${escapeHtml(payable.order_no)}">
<input type="hidden" name="sign" value="${escapeHtml(payable.sign)}">
${Object.entries(viewerParams(viewer))
  .map(([name, value]) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`)
  .join('\n')}
<button type="submit">${tr('sandbox.pay')}</button>
</form>`
    : '';
  return `<!doctype html>
<html lang="${locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${tr('sandbox.title')}</title>
<style>
body{font-family:system-ui,sans-serif;background:#f2f3f5;color:#1d2129;margin:0;padding:48px 16px}
main{max-width:420px;margin:0 auto;background:#fff;border-radius:8px;padding:24px 28px;box-shadow:0 2px 8px rgba(0,0,0,.08)}
h1{font-size:20px;margin:0 0 4px}.hint{color:#86909c;font-size:13px;margin:0 0 20px}
dl{display:grid;grid-template-columns:auto 1fr;gap:8px 16px;margin:0 0 24px}dt{color:#86909c}dd{margin:0}
.amount{font-size:22px;font-weight:600;color:#f53f3f}.notice{padding:12px;border-radius:4px;background:#e8f3ff}
button{width:100%;padding:10px;font-size:16px;border:0;border-radius:4px;background:#165dff;color:#fff;cursor:pointer}
button:focus-visible{outline:3px solid #94bfff;outline-offset:2px}
</style>
</head>
<body>
<main>
<h1>${tr('sandbox.title')}</h1>
<p class="hint">${tr('sandbox.notice')}</p>
${rows}
${notice ? `<p class="notice" role="status">${tr(notice)}</p>` : ''}
${form}
</main>
</body>
</html>
`;
}

function sendPage(reply: FastifyReply, status: number, content: PageContent) {
  return reply
    .status(status)
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(page(content));
}

export function sandboxRoutes(
  app: FastifyInstance,
  provider: SandboxPaymentProvider,
  /** Whether the sandbox takes payments now (off: its pages say so). */
  isOn: () => Promise<boolean>,
): void {
  const { ctx } = app;
  const now = () => ctx.now();

  /** The order behind a valid link, or undefined (a bad link and a missing order look alike). */
  async function orderOfLink(input: unknown) {
    const link = linkSchema.safeParse(input);
    if (!link.success || !provider.checkCheckoutSign(link.data.order_no, link.data.sign)) {
      return undefined;
    }
    const order = await findOrderByNo(ctx.db, link.data.order_no);
    if (!order || order.pay_way !== provider.way) return undefined;
    return { order, sign: link.data.sign };
  }

  const invalid = async (reply: FastifyReply, viewer: Viewer) =>
    sendPage(reply, 404, {
      viewer,
      notice: (await isOn()) ? 'sandbox.invalidLink' : 'sandbox.off',
    });

  app.route({
    method: 'GET',
    url: '/pay/sandbox/checkout',
    exposeHeadRoute: false,
    config: {
      policy: { roles: 'public', scope: 'whoever holds the signed pay_url' },
      doc: {
        query: linkSchema,
        raw: { contentType: 'text/html; charset=utf-8', description: PAGE },
      },
    },
    handler: async (request, reply) => {
      const viewer = viewerOf(request, request.query);
      const found = (await isOn()) ? await orderOfLink(request.query) : undefined;
      if (!found) return invalid(reply, viewer);
      const { order, sign } = found;
      const status = effectiveStatus(order, now());
      const shown = {
        order_no: order.order_no,
        package_name: order.package_name,
        amount: Number(order.amount),
        expires_at: Number(order.expires_at),
      };
      if (status !== 'pending') {
        const notice = status === 'closed' ? 'sandbox.closed' : 'sandbox.paid';
        return sendPage(reply, 200, { viewer, order: shown, notice });
      }
      return sendPage(reply, 200, {
        viewer,
        order: shown,
        payable: { order_no: order.order_no, sign },
      });
    },
  });

  // The "Pay" button posts a plain HTML form: this route alone accepts form bodies.
  void app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 4096 },
      (_request, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(String(body))));
      },
    );
    scope.route({
      method: 'POST',
      url: '/pay/sandbox/pay',
      config: {
        policy: { roles: 'public', scope: 'whoever holds the signed pay_url' },
        audit: { none: 'the sandbox’s pay button: it sends the notification /pay/notify/sandbox' },
        doc: {
          body: linkSchema,
          bodyType: 'application/x-www-form-urlencoded',
          raw: {
            contentType: 'text/html; charset=utf-8',
            description: `303 to the checkout page once paid; else ${PAGE}`,
          },
        },
      },
      handler: async (request, reply) => {
        const viewer = viewerOf(request, request.body);
        const found = (await isOn()) ? await orderOfLink(request.body) : undefined;
        if (!found) return invalid(reply, viewer);
        const { order, sign } = found;
        // Only a pending order can be paid here; otherwise the page shows how things stand.
        if (effectiveStatus(order, now()) === 'pending') {
          const answer = await provider.pay(
            {
              order_no: order.order_no,
              amount: Number(order.amount),
              subject: order.package_name,
              expires_at: Number(order.expires_at),
            },
            now(),
          );
          if (answer.status !== 200) {
            request.log.warn({ answer }, 'sandbox payment notification refused');
            return sendPage(reply, 502, { viewer, notice: 'sandbox.failed' });
          }
        }
        const query = new URLSearchParams({
          order_no: order.order_no,
          sign,
          ...viewerParams(viewer),
        });
        return reply.status(303).header('location', `${CHECKOUT}?${query}`).send();
      },
    });
  });
}
