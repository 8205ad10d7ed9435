import {
  addCardsBody,
  formatFaceValue,
  type AddCardsReply,
  type CardAsset,
} from '../../api/contract/cards';
import { fieldErrors, type Checked, type FieldErrors } from '../draft-dialog';
import { createMoneyCallMachine, type MoneyCallSnapshot } from '../money-call';

/**
 * The "generate cards" dialog: the form → a confirmation (for a partner: the total it pays, face
 * value × quantity) → submitting → done with the batch number, or failed. It is a money call
 * (money-call.ts): the idempotency key is made when the draft is confirmed and every retry of that
 * submission sends it again, so a lost reply never makes (or charges for) a second batch.
 */
export interface GenerateDraft {
  asset: CardAsset;
  /** In the card's unit: money "12.50", digital-human minutes, a clone count. */
  faceValue: string;
  quantity: number;
  /** Epoch ms, or null for "never expires". */
  expireAt: number | null;
  /** Display only, money ("0.00" when none). */
  price: string;
  remark: string;
}

/** The last millisecond of a day of the viewer's calendar ("YYYY-MM-DD"), or null. */
export function endOfDay(day: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return null;
  return new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + 1).getTime() - 1;
}

/** The form as typed; `expiry` a day of the viewer's calendar ("YYYY-MM-DD") or ''. */
export interface GenerateForm {
  asset: CardAsset;
  faceValue: string;
  quantity: string;
  expiry: string;
  price: string;
  remark: string;
}

export const EMPTY_GENERATE: GenerateForm = {
  asset: 'money',
  faceValue: '',
  quantity: '1',
  expiry: '',
  price: '',
  remark: '',
};

/** The form against the contract's `/recharge_card/add` body; an expiry in the past is refused. */
export function checkGenerate(form: GenerateForm): Checked<GenerateDraft> {
  const quantity = /^\d{1,7}$/.test(form.quantity.trim()) ? Number(form.quantity) : NaN;
  const expireAt = form.expiry ? endOfDay(form.expiry) : null;
  const body = {
    asset: form.asset,
    face_value: form.faceValue.trim(),
    quantity,
    expire_at: expireAt,
    price: form.price.trim(),
    remark: form.remark,
  };
  const parsed = addCardsBody.safeParse(body);
  const found: FieldErrors = parsed.success ? {} : fieldErrors(addCardsBody, body);
  if (expireAt !== null && expireAt <= Date.now()) found.expire_at = 'cards.expiryPast';
  if (!parsed.success || Object.keys(found).length) return { errors: found };
  const out = parsed.data;
  return {
    draft: {
      asset: out.asset,
      faceValue: formatFaceValue(out.asset, out.units),
      quantity: out.quantity,
      expireAt: out.expire_at,
      price: formatFaceValue('money', out.price),
      remark: out.remark,
    },
  };
}

export const generateCardsMachine = createMoneyCallMachine<
  GenerateDraft,
  AddCardsReply,
  GenerateForm
>('generateCards', { empty: EMPTY_GENERATE, check: checkGenerate });
export type GenerateCardsSnapshot = MoneyCallSnapshot<GenerateDraft, AddCardsReply, GenerateForm>;
