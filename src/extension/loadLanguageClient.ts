/**
 * vscode-languageclient, from its own bundle (dist/languageClient.js, see
 * languageClientLibrary.ts), loaded when the client starts, after activation.
 */
import { lazy } from '../core/base/lazy';

export const languageClient = lazy(() => require('vscode-languageclient/node') as typeof import('vscode-languageclient/node'));
