/**
 * Known XSS payloads for the rich-text sanitiser (docs/architecture.md "Rich text"). Each one calls
 * `__xss(n)` when it runs; the page that renders a stored body defines `__xss` to record a hit.
 * Used by tests/server/sanitiser.test.ts (the stored form) and tests/e2e/sanitiser.spec.ts
 * (saved through the API and rendered in Chromium: no hit).
 */
/**
 * The address of a platform image (docs/domain.md §8) in the payloads: the sanitiser keeps such a
 * source. tests/e2e/sanitiser.spec.ts uploads a real image and puts its address here
 * (`withImage`): the server saves only images the writer may use.
 */
export const IMAGE = '/api/v1/images/0123456789abcdef0123456789abcdef.png';
export const withImage = (html: string, url: string) => html.replaceAll(IMAGE, url);

export const XSS_PAYLOADS: readonly string[] = [
  '<script>__xss(1)</script>',
  '<img src=x onerror=__xss(2)>',
  '<svg onload=__xss(3)>',
  '<svg><script>__xss(4)</script></svg>',
  '<body onload=__xss(5)>',
  '<iframe src="javascript:__xss(6)"></iframe>',
  '<iframe srcdoc="<script>parent.__xss(7)</script>"></iframe>',
  '<a href="javascript:__xss(8)">a8</a>',
  '<a href="JaVaScRiPt:__xss(9)">a9</a>',
  '<a href="&#106;avascript:__xss(10)">a10</a>',
  '<a href="java\tscript:__xss(11)">a11</a>',
  '<a href="data:text/html,<script>__xss(12)</script>">a12</a>',
  '<img src="data:image/svg+xml,<svg onload=__xss(13)>">',
  '<object data="javascript:__xss(14)"></object>',
  '<embed src="javascript:__xss(15)">',
  '<form action="javascript:__xss(16)"><button>go</button></form>',
  '<p style="background:url(javascript:__xss(17))">p17</p>',
  '<p style="width: expression(__xss(18))">p18</p>',
  "<style>@import 'javascript:__xss(19)';</style>",
  '<noscript><p title="</noscript><img src=x onerror=__xss(20)>">',
  '<math><mtext><table><mglyph><style><img src=x onerror=__xss(21)>',
  '<svg><p><style><img src=x onerror=__xss(22)></style></p></svg>',
  '<details open ontoggle=__xss(23)>d23</details>',
  '<video><source onerror=__xss(24)></video>',
  '<audio src=x onerror=__xss(25)>',
  '<input autofocus onfocus=__xss(26)>',
  '<marquee onstart=__xss(27)>m27</marquee>',
  '<table background="javascript:__xss(28)"><tr><td onmouseover=__xss(28)>t28</td></tr></table>',
  '<img """><script>__xss(29)</script>">',
  '<a href="https://ok.example/" onclick="__xss(30)">a30</a>',
  '<base href="javascript:__xss(31)//">',
  '<meta http-equiv="refresh" content="0;url=javascript:__xss(32)">',
  '<link rel="stylesheet" href="data:text/css,*{background:url(javascript:__xss(33))}">',
  '<template><img src=x onerror=__xss(34)></template>',
  '<textarea><img src=x onerror=__xss(35)></textarea>',
  '<title><img src=x onerror=__xss(36)></title>',
  '<xmp><img src=x onerror=__xss(37)></xmp>',
  '<scr<script>ipt>__xss(38)</scr</script>ipt>',
  '<p>&lt;img src=x onerror=__xss(39)&gt;</p>',
  '<!--<img src="--><img src=x onerror=__xss(40)//">',
  `<img src="${IMAGE}" onerror="__xss(41)">`,
  '<svg><a xlink:href="javascript:__xss(42)"><text x="20" y="20">a42</text></a></svg>',
  '<iframe src="data:text/html,<script>parent.__xss(43)</script>"></iframe>',
  '<h2 onmouseover=__xss(44) style="text-align:center">h44</h2>',
  '<p style="text-align:center;background-image:url(&quot;javascript:__xss(45)&quot;)">p45</p>',
  `<img src="${IMAGE}" srcset="javascript:__xss(46) 1x" onload=__xss(46)>`,
  '<select><option><img src=x onerror=__xss(47)></option></select>',
  '<noembed><img src=x onerror=__xss(48)></noembed>',
  '<a href="//evil.example/">a49</a><img src="//evil.example/x.png" onerror=__xss(49)>',
  '<div onpointerenter=__xss(50)><span onclick=__xss(50)>s50</span></div>',
];

/** Formatting the editor writes, and what the sanitiser stores of it (docs/architecture.md). */
export const ALLOWED_FORMATTING = {
  input: `<h2 style="text-align: center">Heading</h2><p>Text with <strong>bold</strong>, <em>italic</em>, <u>underline</u>, <s>strike</s> and <a href="https://example.org/help" target="_blank">a link</a>, <a href="mailto:help@example.org">mail</a>.</p><ul><li><p>one</p></li></ul><ol><li><p>two</p></li></ol><p><img src="${IMAGE}" alt="photo"></p><table><tbody><tr><th colspan="1" rowspan="1"><p>H</p></th></tr><tr><td colspan="1" rowspan="1"><p>C</p></td></tr></tbody></table>`,
  stored: `<h2 style="text-align:center">Heading</h2><p>Text with <strong>bold</strong>, <em>italic</em>, <u>underline</u>, <s>strike</s> and <a href="https://example.org/help" target="_blank" rel="noopener noreferrer">a link</a>, <a href="mailto:help@example.org" rel="noopener noreferrer">mail</a>.</p><ul><li><p>one</p></li></ul><ol><li><p>two</p></li></ol><p><img src="${IMAGE}" alt="photo" /></p><table><tbody><tr><th colspan="1" rowspan="1"><p>H</p></th></tr><tr><td colspan="1" rowspan="1"><p>C</p></td></tr></tbody></table>`,
};
