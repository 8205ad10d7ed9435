/**
 * WeChat's own check of a mini program's AppID and AppSecret: the stable access token
 * (`POST /cgi-bin/stable_token`, grant `client_credential`, `force_refresh` false). In this normal
 * mode WeChat answers the token in force without replacing it, so a check never invalidates the
 * token another server of the mini program uses (`GET /cgi-bin/token` would issue a new one, and
 * the old one would die 5 minutes later). WeChat answers HTTP 200 with `access_token` and
 * `expires_in`, or with `errcode` and `errmsg` (40013 invalid appid, 40125 invalid appsecret,
 * 40164 the caller's IP is not whitelisted, …).
 */
export interface MiniProgramCheckInput {
  /** `WECHAT_API_BASE_URL` (default https://api.weixin.qq.com). */
  baseUrl: string;
  appid: string;
  secret: string;
  timeoutMs: number;
}

export class MiniProgramCheckError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MiniProgramCheckError';
  }
}

/** The token's lifetime in seconds when WeChat issued one; throws why not. */
export async function checkMiniProgram(
  input: MiniProgramCheckInput,
): Promise<{ expiresIn: number }> {
  const response = await fetch(`${input.baseUrl.replace(/\/+$/, '')}/cgi-bin/stable_token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({
      grant_type: 'client_credential',
      appid: input.appid,
      secret: input.secret,
      force_refresh: false,
    }),
    redirect: 'error',
    signal: AbortSignal.timeout(input.timeoutMs),
  });
  const text = await response.text();
  let body: { access_token?: unknown; expires_in?: unknown; errcode?: unknown; errmsg?: unknown };
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    throw new MiniProgramCheckError(`HTTP ${response.status}: the answer is not JSON`);
  }
  if (body.errcode !== undefined && body.errcode !== 0) {
    throw new MiniProgramCheckError(`${String(body.errcode)}: ${String(body.errmsg ?? '')}`);
  }
  if (!response.ok || typeof body.access_token !== 'string' || !body.access_token) {
    throw new MiniProgramCheckError(`HTTP ${response.status}: no access_token in the answer`);
  }
  return { expiresIn: Number(body.expires_in) || 0 };
}
