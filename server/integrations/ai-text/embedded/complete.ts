import { createHash } from 'node:crypto';

/**
 * The embedded provider's answer to a generic completion (docs/domain.md §23): no model, so it
 * says so first, then shows what it was given — the prompt's length, its first line and a few of
 * its words picked by a hash of the prompt — in the prompt's language (Chinese when it holds a CJK
 * character). The same prompt always gives the same answer.
 */
export function demonstrationAnswer(prompt: string): string {
  const chinese = /[\u3400-\u9fff]/u.test(prompt);
  const chars = [...prompt].length;
  const firstLine = (prompt.split(/\r?\n/).find((line) => line.trim() !== '') ?? '').trim();
  const shown = [...firstLine].slice(0, 60).join('') + ([...firstLine].length > 60 ? '…' : '');
  const words = [
    ...new Set(
      (chinese ? prompt.match(/[\u3400-\u9fff]{2,4}/gu) : prompt.match(/[A-Za-z]{4,}/g)) ?? [],
    ),
  ];
  const digest = createHash('sha256').update(prompt).digest();
  const picked: string[] = [];
  for (let i = 0; i < words.length && picked.length < 3; i++) {
    const word = words[(digest[i % digest.length]! + i) % words.length]!;
    if (!picked.includes(word)) picked.push(word);
  }
  if (chinese) {
    return [
      '【演示输出】此回答由内置演示引擎生成，并非 AI 模型的回答。配置 AI 文本服务后即可得到模型的回答。',
      `提示词共 ${chars} 个字符，首行：“${shown}”`,
      picked.length ? `关键词：${picked.join('、')}` : '关键词：无',
    ].join('\n');
  }
  return [
    '[Demonstration output] Written by the built-in demonstration engine, not by an AI model. Configure the AI text service for a model’s answer.',
    `The prompt has ${chars} characters; its first line: “${shown}”`,
    picked.length ? `Key words: ${picked.join(', ')}` : 'Key words: none',
  ].join('\n');
}
