import type { SocialPlatformId } from '../../../../src/api/contract/matrix';

/**
 * The embedded generator's material: short-video title patterns and synonym tables, in Chinese
 * and English. In a template `{t}` is the topic taken from the person's title and `{n}` a small
 * number. No emoji: the platforms count them differently and many accounts avoid them.
 */

/** Chinese title patterns, as seen on Douyin, Kuaishou, Xiaohongshu and Channels. */
export const ZH_TEMPLATES: readonly string[] = [
  '{n}个技巧，{t}',
  '{t}，太绝了',
  '原来{t}',
  '{t}，建议收藏',
  '{t}，一定要看到最后',
  '终于有人把{t}讲明白了',
  '{t}的正确打开方式',
  '{t}，{n}个方法就够了',
  '关于{t}，很多人都不知道',
  '谁懂啊！{t}',
  '后悔没早点知道：{t}',
  '{t}，亲测有效',
  '手把手教你：{t}',
  '{t}？看完你就懂了',
  '{t}｜新手必看',
  '一分钟看懂{t}',
  '别划走！{t}',
  '{t}，真的太实用了',
  '原来{t}这么简单',
  '{n}秒学会：{t}',
  '千万别错过：{t}',
];

/** English title patterns. */
export const EN_TEMPLATES: readonly string[] = [
  '{n} tips: {t}',
  '{t}, and it works',
  'Nobody told me this: {t}',
  '{t}, explained in 60 seconds',
  'The truth about {t}',
  '{t} (save this for later)',
  'Stop scrolling: {t}',
  'I tried it: {t}',
  '{t}, the easy way',
  'Watch till the end: {t}',
  '{n} hacks for {t}',
  '{t}? Here is how',
  'Wish I knew sooner: {t}',
  '{t} in {n} steps',
  'Do not skip this: {t}',
  '{t}, finally explained',
  'Beginners, watch this: {t}',
  '{t}: game changer',
  '{t} that actually works',
  'Try this: {t}',
  '{t}, simplified',
  'Real talk: {t}',
  'Pro tip: {t}',
  '{t}, done right',
  '{t}: must see',
];

/** A few patterns in each platform's manner, tried besides the common ones. */
export const ZH_PLATFORM_TEMPLATES: Readonly<Record<SocialPlatformId, readonly string[]>> = {
  douyin: ['{t}，评论区见', '{t}，点赞收藏不迷路'],
  kuaishou: ['老铁们看过来：{t}', '{t}，老铁们学起来'],
  xiaohongshu: ['{t}｜保姆级教程', '姐妹们冲！{t}'],
  channels: ['{t}，转给需要的人', '{t}，值得一看'],
};

export const EN_PLATFORM_TEMPLATES: Readonly<Record<SocialPlatformId, readonly string[]>> = {
  douyin: ['{t}, see you in the comments', '{t}, like and save'],
  kuaishou: ['Hey folks: {t}', '{t}, try it today'],
  xiaohongshu: ['{t} | full guide', 'Girls, try this: {t}'],
  channels: ['{t}, share with a friend', '{t}, worth a look'],
};

/** Words and their stand-ins (the first of a group is looked for in the topic). */
export const ZH_SYNONYMS: readonly (readonly string[])[] = [
  ['技巧', '方法', '妙招', '窍门'],
  ['学会', '掌握', '搞懂'],
  ['简单', '轻松', '容易'],
  ['好看', '出片', '高级'],
  ['快速', '迅速', '飞快'],
  ['视频', '短视频', '作品'],
  ['教程', '攻略', '指南'],
  ['推荐', '安利', '种草'],
  ['必备', '必看', '必入'],
  ['提升', '提高', '翻倍'],
  ['新手', '小白', '零基础'],
  ['秘密', '秘诀', '诀窍'],
  ['好用', '实用', '省心'],
  ['便宜', '平价', '实惠'],
  ['漂亮', '好看', '惊艳'],
  ['做饭', '下厨', '做菜'],
  ['赚钱', '变现', '搞钱'],
  ['涨粉', '吸粉', '圈粉'],
  ['流量', '播放量', '热度'],
  ['干货', '精华', '重点'],
];

export const EN_SYNONYMS: readonly (readonly string[])[] = [
  ['tips', 'tricks', 'hacks', 'secrets'],
  ['easy', 'simple', 'effortless'],
  ['best', 'top', 'ultimate'],
  ['quick', 'fast', 'speedy'],
  ['make', 'create', 'build'],
  ['video', 'clip', 'reel'],
  ['amazing', 'incredible', 'stunning'],
  ['cheap', 'affordable', 'budget'],
  ['money', 'cash', 'income'],
  ['learn', 'master', 'pick up'],
  ['guide', 'tutorial', 'walkthrough'],
  ['beginners', 'newbies', 'starters'],
  ['grow', 'boost', 'scale'],
  ['recipe', 'dish', 'meal'],
  ['home', 'house', 'place'],
  ['great', 'awesome', 'excellent'],
  ['ways', 'methods', 'moves'],
  ['useful', 'handy', 'practical'],
];

/** Hooks a Chinese title may start or end with: removed to find its topic. */
export const ZH_HOOKS: readonly RegExp[] = [
  /^\d+\s*(个|种|招|款|条)(技巧|方法|妙招|窍门|建议)?[，,:：！!]?/u,
  /^(原来|终于|谁懂啊|震惊|注意|必看|干货|建议收藏|手把手教你|一分钟看懂|别划走)[！!，,:：]?/u,
  /[，,！!]?(太绝了|建议收藏|亲测有效|一定要看到最后|真的太实用了|看完你就懂了|新手必看|评论区见)$/u,
];

export const EN_HOOKS: readonly RegExp[] = [
  /^\d+\s+(tips|tricks|hacks|ways|reasons|steps|secrets)\s*(to|for|on)?\s*[:,-]?\s*/iu,
  /^(stop scrolling|watch till the end|nobody told me this|the truth about|wish i knew sooner|i tried it)\s*[:,-]?\s*/iu,
  /\s*[,(-]?\s*(save this for later|and it works|game changer|explained|finally)\)?$/iu,
];

/** Numbers the `{n}` of a template takes. */
export const NUMBERS: readonly number[] = [3, 5, 6, 7, 8, 9, 10];

/** Topics when a title has none left (only hooks, punctuation or emoji). */
export const ZH_FALLBACK_TOPIC = '这个视频';
export const EN_FALLBACK_TOPIC = 'this video';
