/**
 * The answers "Choose How to Distill" asks for besides the provider: the server's URL (OpenAI or
 * an OpenAI-compatible server, Ollama) and the model. No vscode import, so plain Node tests it.
 * A value equal to the provider's default is not kept in settings: the default then follows the
 * provider, and a later switch of provider leaves nothing behind that belongs to the old one.
 */
import { VENDOR_ENDPOINTS, type NetworkVendor } from '../../core/services/providers/endpoints';

/** The vendors whose server a person may run elsewhere, so the choice asks for its URL. */
export const ASKS_FOR_URL: readonly NetworkVendor[] = ['openai', 'ollama'];

/** Why `text` is not a server URL Lore can call, or undefined when it is. */
export function baseUrlProblem(text: string): string | undefined {
  const value = text.trim();
  if (!value) return 'Enter the server address, for example https://api.openai.com/v1';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'This is not a web address: it starts with http:// or https://, for example http://localhost:1234/v1';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'The address starts with http:// or https://';
  if (url.search || url.hash) return 'Leave out the part after ? or #';
  return undefined;
}

/** The URL to keep in `lore.baseUrl`: undefined for the provider's default. */
export function baseUrlToKeep(vendor: NetworkVendor, text: string): string | undefined {
  const value = text.trim().replace(/\/+$/, '');
  return value === VENDOR_ENDPOINTS[vendor].defaultBaseUrl ? undefined : value;
}

/** The model to keep in `lore.model`: undefined for the provider's default (or nothing typed). */
export function modelToKeep(vendor: NetworkVendor, text: string): string | undefined {
  const value = text.trim();
  return value === '' || value === VENDOR_ENDPOINTS[vendor].defaultModel ? undefined : value;
}
