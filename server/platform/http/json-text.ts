/**
 * A reply's `data` already written as JSON (e.g. rows the database wrote as JSON text,
 * docs/decisions.md "Customers"): defineRoute splices it into the envelope as it is.
 * `T` is what the text parses to, for the reader and the handler's type.
 */
export class JsonText<T> {
  declare private readonly parsesTo?: T;

  constructor(readonly text: string) {}
}
