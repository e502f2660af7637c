/**
 * Entry of dist/languageClient.js: vscode-languageclient (with the protocol and jsonrpc it
 * re-exports), bundled apart from dist/extension.js so that activation does not load it. The
 * extension bundle maps `vscode-languageclient/node` and `vscode-languageserver-protocol` to this
 * file (esbuild.mjs), and reaches it only when the client starts (a dynamic import in
 * loreServerClient.ts) or a message type is first built (src/shared/protocol.ts). One bundle for
 * both, so the type objects and the client share one jsonrpc copy (it compares by identity).
 */
export * from 'vscode-languageclient/node';
