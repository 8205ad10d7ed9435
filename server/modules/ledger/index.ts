export {
  balanceOf,
  closeHold,
  extendHold,
  findHold,
  holdsOf,
  openHold,
  refundPart,
  settlePart,
} from './holds';
export { memoColumns, memoText, type Memo } from './memo';
export { postEntry } from './repo';
export {
  idempotencyOf,
  issue,
  lockUsers,
  post,
  postSystem,
  runMoney,
  type Idempotency,
  type Trx,
} from './service';
