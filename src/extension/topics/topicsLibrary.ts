/**
 * Entry of dist/topicsLibrary.js: what the topic commands need from core (the context compiler,
 * the topics, the topic template), bundled apart from dist/extension.js (esbuild.mjs maps this
 * module to that file) so that the extension's activation bundle does not grow with them; it is
 * loaded when a topic command first runs.
 */
export { explainContext, explanationMarkdown } from '../../core/services/topics/explainContext';
export { DEFAULT_BUDGET_TOKENS } from '../../core/services/context/constants';
export { createTopicFile } from '../../core/services/topics/newTopic';
export { TOPIC_FILE_NAME } from '../../core/services/topics/topicBuild';
export { loadTopics } from '../../core/services/topics/loadTopics';
export { readGateLog } from '../../core/services/topics/gateLog';
export { summarizeGateLog } from '../../core/services/topics/gateStats';
export { adapterAsker, GATE_TIMEOUT_MS, textGate } from '../../core/services/topics/topicGate';
export { storePrivateMarkers } from '../../core/store/storeConfig';
