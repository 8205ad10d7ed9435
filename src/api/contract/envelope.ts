export { ReplyCode } from './reply-codes';

export interface Envelope<T> {
  code: number;
  msg: string;
  data: T;
}

/** A page of a list (docs/domain.md §2). */
export interface Page<T> {
  list: T[];
  total: number;
}
