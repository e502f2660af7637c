/**
 * The vendor SDKs, each required on first use. Four SDKs weigh megabytes and take seconds to
 * load; a CLI run with the offline extractor and an extension activation need none of them.
 * Modules that use an SDK import its types only (`import type`) and get the value from here.
 *
 * In the bundles, esbuild.mjs maps each of these module names to its own file under
 * dist/vendor/, so dist/extension.js holds no SDK and the packaged VSIX still works offline.
 */
import { lazy } from '../../base/lazy';

/** The OpenAI SDK module. */
export const openaiSdk = lazy(() => require('openai') as typeof import('openai'));

/** The Anthropic SDK module. */
export const anthropicSdk = lazy(() => require('@anthropic-ai/sdk') as typeof import('@anthropic-ai/sdk'));

/** The Google Gen AI SDK module. */
export const genaiSdk = lazy(() => require('@google/genai') as typeof import('@google/genai'));

/** The Ollama client module. */
export const ollamaSdk = lazy(() => require('ollama') as typeof import('ollama'));
