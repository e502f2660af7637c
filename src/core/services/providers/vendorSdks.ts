/**
 * The vendor SDKs, each required on first use. Four SDKs weigh megabytes and take seconds to
 * load; a CLI run with the offline extractor and an extension activation need none of them.
 * Modules that use an SDK import its types only (`import type`) and get the value from here.
 *
 * In the bundles, esbuild.mjs maps each of these module names to its own file under
 * dist/vendor/, so dist/extension.js holds no SDK and the packaged VSIX still works offline.
 */

/** The OpenAI SDK module. */
export function openaiSdk(): typeof import('openai') {
  return require('openai') as typeof import('openai');
}

/** The Anthropic SDK module. */
export function anthropicSdk(): typeof import('@anthropic-ai/sdk') {
  return require('@anthropic-ai/sdk') as typeof import('@anthropic-ai/sdk');
}

/** The Google Gen AI SDK module. */
export function genaiSdk(): typeof import('@google/genai') {
  return require('@google/genai') as typeof import('@google/genai');
}

/** The Ollama client module. */
export function ollamaSdk(): typeof import('ollama') {
  return require('ollama') as typeof import('ollama');
}
