/**
 * Registers the server's side of a declared message (src/shared/declareMessage.ts): the params are
 * checked with the declaration's schema before the handler runs, and a request that does not fit
 * is answered with InvalidParams naming the method and the field; nothing is read or written then.
 * Registered by method string (see src/shared/protocol.ts for why not by `type`).
 */
import type { Connection } from 'vscode-languageserver/node';
import type { NotificationDeclaration, RequestDeclaration } from '../shared/declareMessage';
import { checkParams } from './requestParams';

/** Answers a client → server request with `handler`, given checked params. */
export function handleRequest<P, R>(
  connection: Connection,
  message: RequestDeclaration<P, R>,
  handler: (params: P) => R | Promise<R>,
): void {
  if (message.direction !== 'toServer') throw new Error(`${message.method} is not answered by the server`);
  // A request without params (`{}` omitted by some clients) is checked as an empty object.
  connection.onRequest(message.method, async (raw: unknown): Promise<unknown> =>
    handler(checkParams(message.method, message.params, raw ?? {})),
  );
}

/** Handles a client → server notification; one that does not fit its schema is dropped (a notification has no answer). */
export function handleNotification<P>(connection: Connection, message: NotificationDeclaration<P>, handler: (params: P) => void): void {
  if (message.direction !== 'toServer') throw new Error(`${message.method} is not handled by the server`);
  connection.onNotification(message.method, (raw: unknown) => {
    const params = message.params.safeParse(raw ?? {});
    if (params.success) handler(params.data);
  });
}
