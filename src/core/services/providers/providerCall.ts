/**
 * The plumbing every network provider shares: one deadline and the caller's cancellation folded
 * into a single AbortSignal, a prompt return when either fires (whether or not the SDK honours
 * the signal quickly), and classification of whatever the SDK threw.
 */

import { DEFAULT_TIMEOUT_MS } from '../../model/constants';
import { ProviderError, type ModelRequest, type ProviderOptions } from './provider';
import { cancelledError, timeoutError, toProviderError, type ErrorContext } from './providerErrors';

/** Retries the SDKs may make on 429/5xx/connection errors, with their own backoff. */
export const SDK_MAX_RETRIES = 1;

/** What a provider's SDK call receives. */
export interface CallControl {
  /** Aborted on the caller's cancellation or at the deadline. Pass it to the SDK. */
  signal: AbortSignal;
  /** The per-call deadline, also worth giving the SDK as its own per-attempt timeout. */
  timeoutMs: number;
}

/**
 * Runs one SDK call under a deadline that covers the whole call, SDK retries included (so a
 * retry cannot double the wait), and maps failures to ProviderError.
 */
export async function runProviderCall<T>(
  provider: string,
  request: ModelRequest,
  options: ProviderOptions,
  context: Omit<ErrorContext, 'timeoutMs'>,
  call: (control: CallControl) => Promise<T>,
): Promise<T> {
  const timeoutMs = request.timeoutMs ?? options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (request.signal?.aborted) throw cancelledError(provider);
  const controller = new AbortController();
  let stopped: ProviderError | undefined;
  let rejectStop: (error: ProviderError) => void = () => undefined;
  const stop = new Promise<never>((_, reject) => {
    rejectStop = reject;
  });
  const halt = (error: ProviderError): void => {
    if (stopped) return;
    stopped = error;
    controller.abort(error);
    rejectStop(error);
  };
  const timer = setTimeout(() => halt(timeoutError(provider, timeoutMs)), timeoutMs);
  const onCallerAbort = (): void => halt(cancelledError(provider));
  request.signal?.addEventListener('abort', onCallerAbort, { once: true });
  try {
    const work = call({ signal: controller.signal, timeoutMs });
    // After a stop, the SDK's own rejection is expected and already accounted for.
    work.catch(() => undefined);
    return await Promise.race([work, stop]);
  } catch (error) {
    if (stopped) throw stopped;
    throw toProviderError(provider, error, { ...context, timeoutMs });
  } finally {
    clearTimeout(timer);
    request.signal?.removeEventListener('abort', onCallerAbort);
  }
}
