import { STORAGE_KEYS } from '../src/api/contract/storage-keys.ts';

/**
 * index.html's inline script of a signed-in page loaded afresh (build/preload-routes.ts; tests run
 * it as it is, tests/unit/http-early.test.ts). The script itself: `manifest` is {f: files, c: per locale the common files, r: per path per
 * locale, q: per path the first data calls}. The calls go first (the browser's six connections
 * are then taken by the chunks), with the headers the HTTP layer sends (src/api/http.ts
 * `withHeaders`: token, platform, lang); each reply is kept in `window.__early` as superagent would
 * give it (src/api/http-early.ts `InlineEarly`, `EarlyReply`): a 2xx resolves with the status and
 * the parsed body, another status rejects with them, no reply rejects as a network error (marked
 * handled: a reply nobody reads is no error).
 */
export function inlineScript(manifest: unknown): string {
  const keys = JSON.stringify({ token: STORAGE_KEYS.token, locale: STORAGE_KEYS.locale });
  return (
    `(function(m,k){try{` +
    // The token the HTTP layer sends: the session-storage (overstep) one wins (tokenStore.get).
    `var t=sessionStorage.getItem(k.token)||localStorage.getItem(k.token);if(!t)return;` +
    `var p=location.pathname.replace(/\\/+$/,''),r=m.r[p];if(!r)return;` +
    // No locale stored (or an unknown one): index.html's own, the default (as locale-store.ts).
    `var l=localStorage.getItem(k.locale);if(!m.c[l])l=document.documentElement.lang;` +
    `window.__early=(m.q[p]||[]).map(function(c){var h={token:t,platform:'pc',lang:l};` +
    `if(c[2])h['content-type']='application/json';` +
    `var q=fetch(c[1],{method:c[0],headers:h,body:c[2]}).then(function(x){` +
    `return x.text().then(function(s){var b=s;try{b=JSON.parse(s)}catch(e){}` +
    `var o={status:x.status,body:b};if(x.ok)return o;` +
    `throw Object.assign(Error('HTTP '+x.status),{status:x.status,response:o})})},` +
    `function(){throw Error('network error')});q.catch(function(){});` +
    `return{m:c[0],u:c[1],b:c[2]||'',t:t,l:l,r:q}});` +
    `m.c[l].concat(r[l]).forEach(function(i){var e=document.createElement('link');` +
    `e.rel='modulepreload';e.crossOrigin='';e.dataset.route='';e.href='/'+m.f[i];document.head.appendChild(e)})` +
    // `<` escaped: no `</script>` can end the script early.
    `}catch(e){}})(${JSON.stringify(manifest).replace(/</g, '\\u003c')},${keys})`
  );
}
