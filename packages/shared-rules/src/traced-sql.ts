import { context, SpanKind, SpanStatusCode, trace, type Tracer } from '@opentelemetry/api';
import type { PendingQuery, Sql } from 'postgres';

/*
 * postgres.js has no OpenTelemetry hook, so both apps wrap their pools here (the Books API's
 * store, the portal's ledger and sessions), at the one place
 * every statement passes: a tagged statement (`sql\`...\``) gets a CLIENT span from the moment
 * it is sent (its first `then`, which is what runs it) until it answers, as a child of the span
 * current then. Only its operation and table are described, from the statement's fixed text:
 * never its parameters. A statement sent outside any traced request (migrations, background
 * work) is not traced. Each app wraps its pools only while tracing is on.
 */

interface Statement {
  readonly name: string;
  readonly attributes: Readonly<Record<string, string>>;
}

/** Keyed by the template's strings, one array per place in the code: a fixed, small set. */
const statements = new WeakMap<TemplateStringsArray, Statement>();

const DML = /\b(select|insert|update|delete)\b/;
const TABLE = /\b(?:from|into|update)\s+([a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)?)/;

/** The operation (the first keyword; a `with` statement's first inner one) and the first table named. */
export function describeStatement(strings: TemplateStringsArray): Statement {
  let statement = statements.get(strings);
  if (statement !== undefined) return statement;
  const text = strings.join('$').trim().toLowerCase();
  let operation = /^[a-z]+/.exec(text)?.[0] ?? 'query';
  if (operation === 'with') operation = DML.exec(text)?.[1] ?? operation;
  const table = TABLE.exec(text)?.[1];
  const attributes: Record<string, string> = {
    'db.system.name': 'postgresql',
    'db.operation.name': operation.toUpperCase(),
  };
  if (table !== undefined) attributes['db.collection.name'] = table;
  statement = {
    name: table === undefined ? operation.toUpperCase() : `${operation.toUpperCase()} ${table}`,
    attributes,
  };
  statements.set(strings, statement);
  return statement;
}

function isTemplate(value: unknown): value is TemplateStringsArray {
  return Array.isArray(value) && Array.isArray((value as unknown as TemplateStringsArray).raw);
}

/** Spans the statement's run: from the `then` that sends it to its answer. */
function traceWhenSent(query: PendingQuery<readonly object[]>, strings: TemplateStringsArray, tracer: Tracer): void {
  // Promise.prototype.then as the query's class has it, called below with the query as `this`.
  // eslint-disable-next-line @typescript-eslint/unbound-method -- always called with the query as `this`
  const { then } = Object.getPrototypeOf(query) as PendingQuery<readonly object[]>;
  // An own property shadows the prototype's `then` until the first call, which removes it: a
  // statement is sent once, and one used as a fragment of another is never sent by itself.
  void Object.defineProperty(query, 'then', {
    configurable: true,
    writable: true,
    value: function sendTraced(this: typeof query, ...callbacks: Parameters<typeof then>) {
      delete (query as { then?: unknown }).then;
      const active = context.active();
      if (trace.getSpan(active) !== undefined) {
        const { name, attributes } = describeStatement(strings);
        const span = tracer.startSpan(name, { kind: SpanKind.CLIENT, attributes }, active);
        void then.call(
          query,
          () => span.end(),
          (error: unknown) => {
            // The error's class and the server's code, never its message: it may quote a value.
            const code = (error as { code?: unknown }).code;
            span.setAttribute('error.type', typeof code === 'string' ? code : ((error as Error).name ?? 'Error'));
            span.setStatus({ code: SpanStatusCode.ERROR });
            span.end();
          },
        );
      }
      return then.apply(query, callbacks);
    },
  });
}

/** The pool (or a transaction) with a span per statement; everything else passes through. */
export function tracedSql(sql: Sql, tracer: Tracer): Sql {
  return new Proxy(sql, {
    apply(target, thisArg, args: unknown[]) {
      const result: unknown = Reflect.apply(target, thisArg, args);
      if (isTemplate(args[0])) traceWhenSent(result as PendingQuery<readonly object[]>, args[0], tracer);
      return result;
    },
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (property !== 'begin' || typeof value !== 'function') return value;
      // A transaction's statements go through its own `sql`: wrapped the same way.
      return (...args: unknown[]) => {
        const last = args.length - 1;
        const work = args[last] as (tx: Sql) => unknown;
        args[last] = (tx: Sql) => work(tracedSql(tx, tracer));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}
