import { Type, type TSchema } from '@sinclair/typebox';

/** Request bodies drop unknown fields instead of failing (docs/api-conventions.md#base-path-and-bodies); known fields validate strictly. */
export function Body<T extends Parameters<typeof Type.Object>[0]>(properties: T) {
  return Type.Object(properties, { additionalProperties: false });
}

/** One of a fixed set of strings, as a JSON Schema `enum`: a bad value is one validation error, not one per choice. */
export function OneOf<const T extends string>(values: readonly T[]) {
  return Type.Unsafe<T>({ type: 'string', enum: [...values] });
}

export const Pagination = Type.Object({
  total: Type.Integer(),
  page: Type.Integer(),
  page_size: Type.Integer(),
  total_pages: Type.Integer(),
  has_next: Type.Boolean(),
  has_prev: Type.Boolean(),
});

/** The highest page any list serves: a billion rows at the largest page size, and offsets that stay exact integers. */
export const maxPage = 1_000_000;
export const PageNumber = Type.Integer({ minimum: 1, maximum: maxPage, default: 1 });

export const PageQuery = {
  page: Type.Optional(PageNumber),
  page_size: Type.Optional(Type.Integer({ minimum: 1, default: 50 })),
};

export function Page<T extends TSchema>(item: T) {
  return Type.Object({ data: Type.Array(item), pagination: Pagination });
}

export const ErrorBodySchema = Type.Object({
  error: Type.String(),
  message: Type.String(),
  details: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
});

export const Timestamp = Type.String({ format: 'date-time' });

/** The 202 body of every endpoint that queues a task. */
export const QueuedTask = Type.Object({
  task_id: Type.String(),
  status: Type.Literal('queued'),
  message: Type.String(),
});
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
export const AnyObject = Type.Record(Type.String(), Type.Unknown());
