/**
 * One declaration per protocol message: its method, which way it goes, and the zod schema of its
 * params (and, where the receiver checks it, of its result). The TypeScript types follow from the
 * schema (`ParamsOf`, `ResultOf`), the receiving side checks with the same schema
 * (src/server/handleMessage.ts on the server), and the sender passes the declaration itself to
 * `sendRequest` (its `type`).
 *
 * Schemas are functions of zod, built on the first check: importing a declaration loads neither
 * zod nor an LSP library, so the extension host, which only sends, loads them only when it first
 * checks something itself (a server → client request) or starts the client.
 */
import type { NotificationType, RequestType } from 'vscode-languageserver-protocol';
import type { z } from 'zod';
import { lazy } from '../core/base/lazy';

/** `toServer`: the VS Code client sends, the language server answers. `toClient`: the other way. */
export type Direction = 'toServer' | 'toClient';

export type Zod = typeof z;

/** A result the receiver does not check (the sender is Lore's own code); it only carries the type. */
export interface Unchecked<R> {
  readonly unchecked: true;
  /** Never set: the type of the result. */
  readonly type?: R;
}

/** The result of a request whose type is declared elsewhere (a core report): typed, not checked. */
export function returns<R>(): Unchecked<R> {
  return { unchecked: true };
}

interface Declared<P> {
  readonly method: string;
  readonly direction: Direction;
  /** The params schema, built (and zod loaded) on first use. */
  readonly params: z.ZodType<P>;
}

export interface RequestDeclaration<P, R> extends Declared<P> {
  readonly kind: 'request';
  /** The result schema when the receiver's answer is checked, else undefined. */
  readonly result: z.ZodType<R> | undefined;
  /** The LSP type for `sendRequest`/`onRequest` on the client (built on first use). */
  readonly type: RequestType<P, R, void>;
}

export interface NotificationDeclaration<P> extends Declared<P> {
  readonly kind: 'notification';
  readonly type: NotificationType<P>;
}

export type ParamsOf<D> = D extends Declared<infer P> ? P : never;
export type ResultOf<D> = D extends RequestDeclaration<unknown, infer R> ? R : never;

function once<T>(build: () => T): () => T {
  let value: T | undefined;
  let built = false;
  return () => {
    if (!built) {
      value = build();
      built = true;
    }
    return value as T;
  };
}

const zodLibrary = lazy(() => require('./zodLibrary') as typeof import('./zodLibrary'));
const lspProtocol = lazy(() => require('vscode-languageserver-protocol') as typeof import('vscode-languageserver-protocol'));

function zod(): Zod {
  return zodLibrary().z;
}

/** Declares a request: `params` and `result` build their schemas from zod when first asked for. */
export function request<P, R>(spec: {
  method: string;
  direction: Direction;
  params: (z: Zod) => z.ZodType<P>;
  result: ((z: Zod) => z.ZodType<R>) | Unchecked<R>;
}): RequestDeclaration<P, R> {
  const params = once(() => spec.params(zod()));
  const resultSpec = spec.result;
  const result = once(() => (typeof resultSpec === 'function' ? resultSpec(zod()) : undefined));
  const type = once(() => {
    return new (lspProtocol().RequestType)<P, R, void>(spec.method);
  });
  return {
    kind: 'request',
    method: spec.method,
    direction: spec.direction,
    get params() {
      return params();
    },
    get result() {
      return result();
    },
    get type() {
      return type();
    },
  };
}

/** Declares a notification (no answer). */
export function notification<P>(spec: {
  method: string;
  direction: Direction;
  params: (z: Zod) => z.ZodType<P>;
}): NotificationDeclaration<P> {
  const params = once(() => spec.params(zod()));
  const type = once(() => {
    return new (lspProtocol().NotificationType)<P>(spec.method);
  });
  return {
    kind: 'notification',
    method: spec.method,
    direction: spec.direction,
    get params() {
      return params();
    },
    get type() {
      return type();
    },
  };
}
