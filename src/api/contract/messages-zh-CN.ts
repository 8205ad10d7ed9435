import type {
  creationValidationEnUS,
  digitalHumanValidationEnUS,
  moneyValidationEnUS,
  signedInValidationEnUS,
  signedOutValidationEnUS,
  contentValidationEnUS,
} from './messages-en-US';

/** The zh-CN texts of the validation messages, in the same groups (see messages-en-US.ts). */
type Texts<T> = Record<keyof T, string>;

export const signedOutValidationZhCN: Texts<typeof signedOutValidationEnUS> = {
  'validation.usernameRequired': '用户名不能为空',
  'validation.passwordRequired': '密码不能为空',
  'validation.passwordRule': '密码至少六位，须包含字母、数字和特殊字符，不能有空格',
  'validation.passwordMismatch': '两次输入的密码不一致',
  'validation.username': '账号为 3–32 位字母、数字或 _ . @ -',
  'validation.mobile': '请输入以 1 开头的 11 位手机号',
  'validation.smsCode': '请输入 6 位验证码',
  'validation.email': '请输入有效的邮箱地址',
  'validation.tooLong': '内容过长',
  'validation.controlChars': '不能包含控制字符（如 NUL）',
  'validation.nameChars': '不能包含不可见字符（如文字方向控制符、零宽字符）',
  'validation.required': '必填',
  'validation.invalid': '取值无效',
  'validation.unknownField': '未知字段',
  'validation.malformed': '请求不是有效的 JSON',
  'validation.merchantId': '请选择商户',
};

export const signedInValidationZhCN: Texts<typeof signedInValidationEnUS> = {
  'validation.amount': '请输入大于 0 且最多两位小数的金额',
  'validation.quantity': '请输入大于 0 的整数',
  'validation.amountTooLarge': '数额过大',
  'validation.asset': '请选择资产类型',
  'validation.user': '请选择用户',
  'validation.nothingToChange': '没有需要修改的内容',
  'validation.dateRange': '开始日期不能晚于结束日期',
  'validation.cardSelection': '请选择卡密或批次',
  'validation.tooManyCards': '最多选择 1000 张卡密',
  'validation.cardQuantity': '数量为 1–1000 的整数',
  'validation.cardPrice': '售价须不小于 0，最多两位小数',
  'validation.cardNo': '请输入卡号',
  'validation.cardPwd': '请输入卡密',
  'validation.cardPageSize': '每页条数为 1–1000 的整数',
  'validation.integrationKind': '请选择集成服务',
  'validation.secretName': '请选择密钥字段',
  'validation.secretValue': '请输入密钥（如需删除已保存的密钥，请使用清除）',
  'validation.notificationSelection': '请指定要标为已读的通知（ids，1 到 100 条），或全部',
};

export const moneyValidationZhCN: Texts<typeof moneyValidationEnUS> = {
  'validation.userType': '请选择用户类型',
  'validation.partnerRequired': '请选择服务商',
  'validation.servicePrefixNo': '编号前缀为 2–6 位字母或数字',
  'validation.merchantCountLimit': '商户数量上限为 -1（不限）或不小于 0 的整数',
  'validation.packageName': '套餐名称为 1–30 个字符',
  'validation.price': '价格须为 0.01–100000000.00 之间、最多两位小数的金额',
  'validation.packageMoney': '到账金额须为 0.01–100000000.00 之间、最多两位小数的金额',
  'validation.giftMoney': '赠送金额须为 0–100000000.00 之间、最多两位小数的金额',
  'validation.sort': '排序须为 0–999999 的整数',
  'validation.packageIds': '请按新顺序列出每个套餐，且不可重复',
  'validation.package': '请选择套餐',
  'validation.payWay': '请选择支付方式',
  'validation.orderNo': '请输入有效的订单号',
};

export const creationValidationZhCN: Texts<typeof creationValidationEnUS> = {
  'validation.resourceType': '请选择素材类型',
  'validation.uploadKey': '上传不存在或已过期',
  'validation.fileName': '文件名为 1–100 个字符',
  'validation.fileSize': '文件大小须为大于 0 的整数字节数',
  'validation.resourceName': '名称为 1–100 个字符',
  'validation.accountSelection': '请选择您的账号',
  'validation.socialPlatform': '请选择平台：抖音、快手、小红书或视频号',
  'validation.planName': '计划名称为 1–40 个字符',
  'validation.planAccounts': '请选择 1–1000 个账号',
  'validation.planMedia': '请选择 1–500 个视频',
  'validation.planTitle': '每个标题为 1–30 个字符',
  'validation.planTopic': '每个话题为 1–20 个字符，不含空格和 #',
  'validation.planTopics': '话题最多 5 个',
  'validation.planLocation': '位置须为 6 位地区编码（省 XX0000、市 XXXX00、海外 990000）',
  'validation.planDate': '日期格式为 YYYY-MM-DD',
  'validation.planSlot': '发布时间格式为 HH:mm（1–24 个）',
  'validation.planDailyMax': '每个账号每天发布 1–24 条',
  'validation.planTimezone': '未知的时区',
  'validation.batchLinkHours': '链接有效期为 1–168 小时',
  'validation.batchLinkUses': '使用次数为 1–1000，或不限',
  'validation.batchLinkToken': '该授权链接无效',
  'validation.videoDataRange': '请选择不超过一年的时间段，结束时间不早于开始时间',
  'validation.accountNickname': '账号名称为 1–30 个字符',
  'validation.shareUrl': '请填写作品的分享链接（http(s) 地址）',
  'validation.groupName': '分组名称为 1–20 个字符',
  'validation.aiTitle': '标题为 1–100 个字符',
  'validation.titleCount': '标题数量须为 1–10 的整数',
  'upload.tooLarge': '文件过大：该类型最大 {max}',
  'upload.overQuota': '存储空间不足：该文件需要 {size}，剩余 {free}（共 {quota}）',
  'upload.badName': '文件名不能包含路径（/ 或 \\）或不可见的控制字符',
  'upload.badExtension': '该类型只接受 {extensions} 文件',
  'upload.wrongType': '文件不是 {extensions} 格式（已检查文件内容）',
  'upload.extensionMismatch': '文件内容与扩展名 {extension} 不符',
  'upload.polyglot': '文件中藏有另一个文件（压缩包）',
  'upload.noVideo': '文件中没有视频流',
  'upload.noAudio': '文件中没有音频流',
  'upload.unreadable': '无法将文件读取为媒体文件',
  'upload.incomplete': '上传尚未完成',
  'upload.sizeMismatch': '上传的文件为 {actual} 字节，与声明的 {declared} 字节不符',
  'upload.grantInvalid': '上传凭证无效或已过期，请重新上传',
  'upload.fileMissing': '请选择要上传的文件',
  'upload.partsInvalid': '已上传的分片与本次上传不符，请重新上传缺失的分片',
  'validation.taskName': '任务名称：1 到 50 个字符',
  'validation.color': '颜色：# 加六位十六进制数字，例如 #FFFFFF',
  'validation.titleText': '标题：1 到 50 个字符',
  'validation.titleSize': '标题字号：12 到 120 的整数',
  'validation.subtitleText': '字幕文案：1 到 2000 个字符',
  'validation.subtitleSize': '字幕字号：12 到 96 的整数',
  'validation.stickerPlace': '贴纸的位置和宽度必须在画面之内',
  'validation.shotGroup': '每个镜头组包含 1 到 50 个素材',
  'validation.shotGroups': '请添加 1 到 20 个镜头组',
  'validation.shotDuration': '镜头时长：0.5 到 60 秒',
  'validation.ratio': '请选择画面比例',
  'validation.resolution': '请选择分辨率',
  'validation.fit': '请选择裁剪铺满或完整显示（模糊背景）',
  'validation.fps': '帧率：1 到 30 的整数',
  'validation.bitrate': '码率：150 到 1800 kbps 的整数',
  'validation.musicVolume': '音乐音量：0 到 10 的整数',
  'validation.tooManyTitles': '标题最多 5 个',
  'validation.tooManyStickers': '贴纸最多 10 个',
  'validation.mixMode': '请选择混剪模式',
  'validation.outputCount': '生成数量：1 到 100 的整数',
  'validation.taskDuration': '时长：1 到 300 秒',
  'validation.trim': '保留的片段至少 0.5 秒，且开始早于结束',
};

export const digitalHumanValidationZhCN: Texts<typeof digitalHumanValidationEnUS> = {
  'validation.cloneName': '名称：1 到 30 个字符',
  'validation.cloneTier': '请选择模型档位',
  'validation.voiceGender': '请选择性别',
  'validation.previewText': '试听文本：1 到 100 个字符',
  'validation.dhVideoName': '视频名称：1 到 50 个字符',
  'validation.speechText': '文案：1 到 5000 个字符',
  'validation.speechSpeed': '语速：0.5 到 2.0',
  'validation.speechVolume': '音量：0 到 2.0',
};

export const contentValidationZhCN: Texts<typeof contentValidationEnUS> = {
  'validation.articleCategory': '请选择分类：公告、帮助或教程',
  'validation.articleTitle': '标题：1 到 60 个字符',
  'validation.articleContent': '请填写正文（最多 200000 个字符）',
  'validation.articleSort': '排序：0 到 9999 的整数',
  'validation.articleStatus': '请选择草稿或发布',
  'validation.articleCover': '封面：须为本平台存储的图片',
  'validation.articleId': '请选择文章',
  'validation.agreementKind': '请选择协议',
  'validation.agreementVersion': '版本：从 1 起的整数',
  'validation.effectiveAt': '生效时间：须为时间（毫秒）',
  'validation.domain': '域名：须为主机名',
};

/**
 * Every validation text: the server's (`validationMessages`, messages.ts). A call marked pure,
 * not an object spread, so a bundle that does not use it leaves it and every group out (the
 * console imports messages.ts for its locales: tests/e2e/bundle.spec.ts).
 */
export const validationMessagesZhCN = /* @__PURE__ */ Object.assign(
  {},
  signedOutValidationZhCN,
  signedInValidationZhCN,
  moneyValidationZhCN,
  creationValidationZhCN,
  digitalHumanValidationZhCN,
  contentValidationZhCN,
) as typeof signedOutValidationZhCN &
  typeof signedInValidationZhCN &
  typeof moneyValidationZhCN &
  typeof creationValidationZhCN &
  typeof digitalHumanValidationZhCN &
  typeof contentValidationZhCN;
