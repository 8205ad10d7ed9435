import type batchAuthEnUS from './signed-out-batch-auth-en-US';

/** The zh-CN messages of the public batch authorisation page (see signed-out-batch-auth-en-US.ts). */
const batchAuthZhCN: Record<keyof typeof batchAuthEnUS, string> = {
  'batchAuth.title': '授权您的账号',
  'batchAuth.whose': '{owner} 请您授权您的{platform}账号。',
  'batchAuth.grants':
    '授权后，{owner} 可以用您的名义在{platform}发布视频，并查看这些视频的数据（播放、点赞、评论）。您可以随时在{platform}取消授权。',
  'batchAuth.details': '链接信息',
  'batchAuth.owner': '账号将绑定到',
  'batchAuth.platform': '平台',
  'batchAuth.expires': '有效期至',
  'batchAuth.usesLeft': '还可授权的账号数',
  'batchAuth.noLimit': '不限',
  'batchAuth.authorise': '前往{platform}授权',
  'batchAuth.reasonExpired': '此链接已过期：请向发送者索取新链接。',
  'batchAuth.reasonRevoked': '此链接已被发送者撤销。',
  'batchAuth.reasonUsedUp': '此链接的可用次数已用完。',
  'batchAuth.boundTo': '您的账号已绑定到 {owner}，现在可以关闭此页面。',
  'batchAuth.boundDone': '您的账号已绑定，现在可以关闭此页面。',
  'batchAuth.noToken': '此地址中没有授权链接：请打开您收到的完整链接。',
  'batchAuth.errorStateInvalid': '此次授权已失效或已使用：请点击“授权”重新开始。',
  'batchAuth.errorDeclined': '您在平台上拒绝了授权。',
  'batchAuth.errorBoundElsewhere': '此账号已绑定到其他用户：需先在那里解除绑定。',
  'batchAuth.errorNotConfigured': '此平台的授权尚未配置。',
  'batchAuth.errorExpired': '账号绑定前此链接已过期。',
  'batchAuth.errorRevoked': '账号绑定前此链接已被撤销。',
  'batchAuth.errorUsedUp': '账号绑定前此链接的可用次数已用完。',
  'batchAuth.errorFailed': '授权失败：请重试。',
  'batchAuth.platformDouyin': '抖音',
  'batchAuth.platformKuaishou': '快手',
  'batchAuth.platformXiaohongshu': '小红书',
  'batchAuth.platformChannels': '视频号',
};

export default batchAuthZhCN;
