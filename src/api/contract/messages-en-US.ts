/**
 * The en-US texts of the validation messages (messages.ts): a module of their own, so the console
 * downloads only the shown locale's, in groups by the catalogue part that carries them
 * (src/i18n/signed-*.ts), so a page downloads the texts its forms can show. The server knows
 * them all (`validationMessagesEnUS`).
 */
/** Shown by the signed-out pages' forms (login, sign-up, forgot password, SMS code) and the generic
 * ones any form may show: the only validation texts a signed-out visitor downloads
 * (src/i18n/signed-out-*.ts). */
export const signedOutValidationEnUS = {
  'validation.usernameRequired': 'Username cannot be empty',
  'validation.passwordRequired': 'Password cannot be empty',
  'validation.passwordRule':
    'Password: at least six characters, with letters, digits and special characters, no spaces',
  'validation.passwordMismatch': 'The two passwords do not match',
  'validation.username': 'Account: 3 to 32 letters, digits, _ . @ or -',
  'validation.mobile': 'Enter an 11-digit mobile number starting with 1',
  'validation.smsCode': 'Enter the 6-digit code',
  'validation.email': 'Enter a valid email address',
  'validation.tooLong': 'Too long',
  'validation.controlChars': 'Must not contain control characters (such as NUL)',
  'validation.nameChars':
    'Must not contain invisible characters (such as text-direction marks or zero-width spaces)',
  'validation.required': 'Required',
  'validation.invalid': 'Invalid value',
  'validation.unknownField': 'Unknown field',
  'validation.malformed': 'The request is not valid JSON',
  'validation.merchantId': 'Choose a merchant',
} as const;

/** Shown by the signed-in pages that admin home and the shell can reach (money and card forms
 * the home page's area modules import): with the signed-in part of the catalogue. */
export const signedInValidationEnUS = {
  'validation.amount': 'Enter an amount greater than 0 with at most 2 decimals',
  'validation.quantity': 'Enter a whole number greater than 0',
  'validation.amountTooLarge': 'The amount is too large',
  'validation.asset': 'Choose an asset',
  'validation.user': 'Choose a user',
  'validation.nothingToChange': 'Nothing to change',
  'validation.dateRange': 'The start date must not be after the end date',
  'validation.cardSelection': 'Choose cards or a batch',
  'validation.tooManyCards': 'Choose at most 1000 cards',
  'validation.cardQuantity': 'Quantity: a whole number from 1 to 1000',
  'validation.cardPrice': 'Price: 0 or more, with at most 2 decimals',
  'validation.cardNo': 'Enter the card number',
  'validation.cardPwd': 'Enter the card password',
  'validation.cardPageSize': 'Rows per page: a whole number from 1 to 1000',
  'validation.integrationKind': 'Choose an integration',
  'validation.secretName': 'Choose a secret field',
  'validation.secretValue': 'Enter the secret (to remove a stored one, clear it)',
  'validation.notificationSelection':
    'Name the notifications to mark as read (ids, 1 to 100 of them), or all',
  'validation.hostname':
    'Hostname: letters, digits, hyphens and dots, such as video.example.com (punycode for other scripts)',
  'validation.hostnameBare': 'Enter the hostname only: no http://, path or port',
  'validation.domainOwner': 'Choose the platform or a partner as owner',
  'validation.domainName': 'Brand name: 1 to 30 characters',
  'validation.brandLogo': 'Logo: upload a PNG, JPEG or WebP image (at most 1 MB)',
  'validation.brandFavicon': 'Favicon: upload a PNG or ICO image (at most 256 KB)',
  'validation.imagePurpose': 'Say what the image is for: logo, favicon or content',
  'validation.themeColor': 'Theme colour: #rrggbb, such as #165dff',
  'validation.domain': 'Choose a domain',
  'validation.domainIds': 'Choose 1 to 100 domains, each once',
  // AI tools, industries, scripts (src/api/contract/ai-tools.ts)
  'validation.aiToolKey': 'Key: 2 to 40 lower-case letters, digits or _',
  'validation.aiToolName': 'Name: 1 to 40 characters',
  'validation.aiToolModel': 'Model: up to 100 characters, no spaces (empty: the configured model)',
  'validation.aiToolTemplate': 'Prompt template: 1 to 4000 characters',
  'validation.aiToolVariable':
    'Variable name: a letter or _, then letters, digits or _ (at most 32)',
  'validation.aiToolVariables': 'Variables: at most 20, each name once',
  'validation.aiToolUnit': 'Choose a unit',
  'validation.aiToolCost': 'Cost: an amount from 0 to 99999.99 with at most 2 decimals',
  'validation.aiToolStatus': 'Choose a status',
  'validation.aiToolVarValue': 'Each value: text of at most 2000 characters',
  'validation.industryName': 'Industry name: 1 to 20 characters',
  'validation.industrySort': 'Sort: a whole number from 0 to 999999',
  'validation.scriptContent': 'Script: 1 to 2000 characters',
  'validation.scriptKind': 'Choose a script kind',
  // The package and customer forms (their checks are the recharge and customers areas').
  'validation.userType': 'Choose a user type',
  'validation.partnerRequired': 'Choose a partner',
  'validation.servicePrefixNo': 'Prefix: 2 to 6 letters or digits',
  'validation.merchantCountLimit': 'Merchant limit: -1 (unlimited) or a whole number from 0',
  'validation.packageName': 'Package name: 1 to 30 characters',
  'validation.price': 'Price: an amount from 0.01 to 100000000.00 with at most 2 decimals',
  'validation.packageMoney':
    'Credited money: an amount from 0.01 to 100000000.00 with at most 2 decimals',
  'validation.giftMoney': 'Gift: an amount from 0 to 100000000.00 with at most 2 decimals',
  'validation.sort': 'Sort: a whole number from 0 to 999999',
  'validation.packageIds': 'List each package once, in the new order',
  'validation.package': 'Choose a package',
  'validation.payWay': 'Choose a payment method',
  'validation.orderNo': 'Enter a valid order number',
} as const;

/** The resource library, uploads (also the server's upload checks) and the video task forms:
 * with the creation part of the catalogue. */
export const creationValidationEnUS = {
  'validation.resourceType': 'Choose a resource type',
  'validation.uploadKey': 'Unknown upload',
  'validation.fileName': 'File name: 1 to 100 characters',
  'validation.fileSize': 'The file size must be a whole number of bytes greater than 0',
  'validation.resourceName': 'Name: 1 to 100 characters',
  'validation.accountSelection': 'Choose one or more of your accounts',
  'validation.socialPlatform':
    'Choose a platform: Douyin, Kuaishou, Xiaohongshu or WeChat Channels',
  'validation.planName': 'Plan name: 1 to 40 characters',
  'validation.planAccounts': 'Choose 1 to 1,000 accounts',
  'validation.planMedia': 'Choose 1 to 500 videos',
  'validation.planTitle': 'Each title: 1 to 30 characters',
  'validation.planTopic': 'Each topic: 1 to 20 characters, no spaces or #',
  'validation.planTopics': 'At most 5 topics',
  'validation.planLocation':
    'Location: a 6-digit region code (province XX0000, city XXXX00, overseas 990000)',
  'validation.planDate': 'Dates as YYYY-MM-DD',
  'validation.planSlot': 'Time slots as HH:mm (1 to 24 of them)',
  'validation.planDailyMax': 'Posts per account per day: 1 to 24',
  'validation.planTimezone': 'Unknown time zone',
  'validation.batchLinkHours': 'The link lasts 1 to 168 hours',
  'validation.batchLinkUses': 'Uses: 1 to 1,000, or no limit',
  'validation.batchLinkToken': 'This authorisation link is not valid',
  'validation.videoDataRange': 'Choose a period of at most a year, its end after its start',
  'validation.accountNickname': 'Account name: 1 to 30 characters',
  'validation.shareUrl': 'The post’s share link: an http(s) address',
  'validation.groupName': 'Group name: 1 to 20 characters',
  'validation.aiTitle': 'Title: 1 to 100 characters',
  'validation.titleCount': 'Number of titles: a whole number from 1 to 10',
  'upload.tooLarge': 'The file is too large: at most {max} for this type',
  'upload.overQuota': 'Not enough storage space: the file needs {size}, {free} of {quota} is left',
  'upload.badName':
    'The file name must not contain a path (/ or \\) or invisible control characters',
  'upload.badExtension': 'This type accepts only {extensions} files',
  'upload.wrongType': 'The file is not a {extensions} file (its content was checked)',
  'upload.extensionMismatch': 'The file’s content does not match its extension {extension}',
  'upload.polyglot': 'The file has another file (an archive) hidden inside it',
  'upload.noVideo': 'No video stream was found in the file',
  'upload.noAudio': 'No audio stream was found in the file',
  'upload.unreadable': 'The file could not be read as media',
  'upload.incomplete': 'The upload has not finished yet',
  'upload.sizeMismatch': 'The uploaded file is {actual} bytes, not the {declared} bytes declared',
  'upload.grantInvalid': 'The upload permission is invalid or has expired: start the upload again',
  'upload.fileMissing': 'Choose a file to upload',
  'upload.partsInvalid':
    'The uploaded parts do not match the upload: upload the missing parts again',
  'validation.taskName': 'Task name: 1 to 50 characters',
  'validation.color': 'Colour: # and six hex digits, such as #FFFFFF',
  'validation.titleText': 'Title: 1 to 50 characters',
  'validation.titleSize': 'Title size: a whole number from 12 to 120',
  'validation.subtitleText': 'Subtitle copy: 1 to 2000 characters',
  'validation.subtitleLine': 'Subtitle line: a text of 1 to 200 characters, ending after it starts',
  'validation.subtitleLines': 'Subtitles: at most 300 lines',
  'validation.subtitleOutline': 'Subtitle outline: a whole number from 0 to 8',
  'validation.narrationText': 'Narration script: 1 to 2000 characters',
  'validation.watermarkText': 'Watermark: 1 to 30 characters',
  'validation.subtitleSize': 'Subtitle size: a whole number from 12 to 96',
  'validation.stickerPlace': 'Sticker place and width must lie within the frame',
  'validation.shotGroup': 'Each shot group takes 1 to 50 clips',
  'validation.shotGroups': 'Add 1 to 20 shot groups',
  'validation.shotDuration': 'Shot length: 0.5 to 60 seconds',
  'validation.ratio': 'Choose an aspect ratio',
  'validation.resolution': 'Choose a resolution',
  'validation.fit': 'Choose crop to fill or fit with a blurred background',
  'validation.fps': 'Frame rate: a whole number from 1 to 30',
  'validation.bitrate': 'Bitrate: a whole number of kbps from 150 to 1800',
  'validation.musicVolume': 'Music volume: a whole number from 0 to 10',
  'validation.tooManyTitles': 'At most 5 titles',
  'validation.tooManyStickers': 'At most 10 stickers',
  'validation.mixMode': 'Choose a mixing mode',
  'validation.outputCount': 'Number of videos: a whole number from 1 to 100',
  'validation.taskDuration': 'Duration: 1 to 300 seconds',
  'validation.trim': 'Keep a part at least 0.5 seconds long that starts before it ends',
  'validation.batchName': 'Batch name: 1 to 50 characters',
  'validation.batchFile': 'Choose a CSV file of at most 256 KB',
  'validation.presetName': 'Preset name: 1 to 30 characters',
  // Also the digital-human forms' (those pages load the creation part too).
  'validation.speechSpeed': 'Speed: 0.5 to 2.0',
  'validation.speechVolume': 'Volume: 0 to 2.0',
} as const;

/** The digital-human clone and video forms: with the digital-human part of the catalogue. */
export const digitalHumanValidationEnUS = {
  'validation.cloneName': 'Name: 1 to 30 characters',
  'validation.cloneTier': 'Choose a model tier',
  'validation.voiceGender': 'Choose a gender',
  'validation.previewText': 'Preview text: 1 to 100 characters',
  'validation.dhVideoName': 'Video name: 1 to 50 characters',
  'validation.speechText': 'Text: 1 to 5000 characters',
  'validation.templateName': 'Template name: 1 to 30 characters',
  'validation.templateAvatar':
    'The presenter’s rectangle lies inside the frame, each side at least 10 % of the frame’s',
  'validation.templateSubtitleY': 'Subtitle position: 10 % to 98 % of the height from the top',
  'validation.templateSubtitleSize': 'Subtitle size: 2 % to 10 % of the height',
  'validation.templateImage': 'Upload a PNG, JPEG or WebP image (at most 5 MB)',
} as const;

/** The system-init page's settings (src/i18n/signed-in-system-init-*.ts). */
export const initConfigValidationEnUS = {
  'validation.initConfigGroup': 'Choose a settings group',
  'validation.initConfigKey': 'this group has no such setting',
  'validation.initConfigUrl': 'must be an http:// or https:// address',
  'validation.initConfigFormat': 'is not in the expected format',
  'validation.initConfigRange': 'must be a whole number within the allowed range',
  'validation.initConfigFile': 'is set by uploading its file',
  'validation.initConfigClear': 'cannot be given a value and cleared at once',
  'validation.initConfigCertKind': 'Choose the private key or the certificate',
} as const;

/** Articles and agreements (docs/domain.md §10). */
export const contentValidationEnUS = {
  'validation.articleCategory': 'Choose a category: notice, help or tutorial',
  'validation.articleTitle': 'Title: 1 to 60 characters',
  'validation.articleContent': 'Write the body (at most 200,000 characters)',
  'validation.articleSort': 'Sort: a whole number from 0 to 9999',
  'validation.articleStatus': 'Choose draft or published',
  'validation.articleCover': 'Cover: upload a PNG, JPEG or WebP image (at most 5 MB)',
  'validation.articleId': 'Choose an article',
  'validation.agreementKind': 'Choose an agreement',
  'validation.agreementVersion': 'Version: a whole number from 1',
  'validation.effectiveAt': 'Effective date: a time (milliseconds)',
  'validation.agreementDomain': 'Domain: a host name',
} as const;

/**
 * Every validation text: the server's (`validationMessages`, messages.ts). A call marked pure,
 * not an object spread, so a bundle that does not use it leaves it and every group out (the
 * console imports messages.ts for its locales: tests/e2e/bundle.spec.ts).
 */
export const validationMessagesEnUS = /* @__PURE__ */ Object.assign(
  {},
  signedOutValidationEnUS,
  signedInValidationEnUS,
  creationValidationEnUS,
  digitalHumanValidationEnUS,
  initConfigValidationEnUS,
  contentValidationEnUS,
) as typeof signedOutValidationEnUS &
  typeof signedInValidationEnUS &
  typeof creationValidationEnUS &
  typeof digitalHumanValidationEnUS &
  typeof initConfigValidationEnUS &
  typeof contentValidationEnUS;
